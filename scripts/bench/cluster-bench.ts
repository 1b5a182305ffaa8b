// npm run bench:cluster (issue 17 item 6): the performance issue's scenarios against the hosted shape of the
// sandbox on this machine: one simulator over the embedded journal store (as `npm start`), then clusters of
// 1 and 2 instances over PostgreSQL behind HAProxy (simulator/testing/cluster.ts), each prepared the same
// way (scenarios.ts), driven by autocannon in rounds. Prints req/s, latency, CPU per request of the whole
// deployment (instances and PostgreSQL, not HAProxy) and database round trips per request (transactions
// counted by PostgreSQL: every statement of the store is its own). Figures for docs/scaling.md; no targets.
//
//   npm run bench:cluster [-- --seconds 5 --rounds 3 --warmup 2 --connections 10 --only get-job,sima-results]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { startCluster, type Cluster } from '../../simulator/testing/cluster.js';
import { buildSimulator } from '../build-simulator.mjs';
import { benchTempDir, LOAD_ARGS, loadOptionsOf, machineDescription, scenariosNamed } from './cli.js';
import { loadRound, median, type Round } from './load.js';
import { cpuMs, ROOT, startSimulator, type BenchProcess } from './processes.js';
import { prepareSimulatorState, SIMULATOR_ENV, simulatorTarget, type Target } from './scenarios.js';

const { values } = parseArgs({
  options: {
    ...LOAD_ARGS,
    only: { type: 'string', default: 'get-job,sima-results,sima-batch,landed-cost' },
    json: { type: 'string', default: path.join(ROOT, 'build', 'bench', 'cluster.json') },
  },
});
const options = loadOptionsOf(values);
const scenarios = scenariosNamed(values.only);

let cluster: Cluster | undefined;
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void (cluster?.stop() ?? Promise.resolve()).finally(() => process.exit(130)));

interface Deployment {
  label: string;
  url: string;
  /** Processes whose CPU is the deployment's (each with its children). */
  pids(): number[];
  /** Transactions PostgreSQL committed or rolled back so far (null without a database). */
  transactions(): Promise<number | null>;
  stop(): Promise<void>;
}

interface Row {
  deployment: string;
  scenario: string;
  rounds: Round[];
  perSecond: number;
  p50: number;
  p99: number;
  cpuUsPerRequest: number;
  dbRoundTrips: number | null;
}

const sumCpu = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);

async function measure(deployment: Deployment, target: Target): Promise<Row[]> {
  const rows: Row[] = [];
  for (const scenario of scenarios) {
    const spec = target.request(scenario.id);
    await loadRound(deployment.url, deployment.pids()[0], spec, { seconds: options.warmup, connections: options.connections });
    const rounds: Round[] = [];
    let cpu = 0;
    let requests = 0;
    let trips = 0;
    for (let r = 0; r < options.rounds; r++) {
      const cpu0 = sumCpu(deployment.pids());
      const tx0 = await deployment.transactions();
      const round = await loadRound(deployment.url, deployment.pids()[0], spec, { seconds: options.seconds, connections: options.connections });
      cpu += sumCpu(deployment.pids()) - cpu0;
      // PostgreSQL publishes its counters about once a second.
      if (tx0 !== null) await new Promise((resolve) => setTimeout(resolve, 1500));
      const tx1 = await deployment.transactions();
      if (tx0 !== null && tx1 !== null) trips += tx1 - tx0;
      requests += round.requests;
      rounds.push(round);
    }
    const row: Row = {
      deployment: deployment.label,
      scenario: scenario.title,
      rounds,
      perSecond: median(rounds.map((r) => r.perSecond)),
      p50: median(rounds.map((r) => r.p50)),
      p99: median(rounds.map((r) => r.p99)),
      cpuUsPerRequest: (cpu * 1000) / Math.max(1, requests),
      dbRoundTrips: (await deployment.transactions()) === null ? null : trips / Math.max(1, requests),
    };
    console.log(`${row.deployment} | ${row.scenario}: ${row.perSecond.toFixed(0)} req/s, p99 ${row.p99} ms, ${row.cpuUsPerRequest.toFixed(0)} us CPU/req${row.dbRoundTrips === null ? '' : `, ${row.dbRoundTrips.toFixed(1)} db round trips/req`}`);
    rows.push(row);
  }
  return rows;
}

async function embedded(): Promise<Deployment & { process: BenchProcess }> {
  const dir = benchTempDir('cluster-embedded');
  const sim = await startSimulator({ SIM_DB: path.join(dir, 'store.mdb'), ...SIMULATOR_ENV }, 'simulator (embedded store)');
  return { label: 'one process, journal store', url: sim.url, process: sim, pids: () => [sim.child.pid!], transactions: async () => null, stop: () => sim.stop() };
}

async function clustered(instances: number): Promise<Deployment & { process: BenchProcess }> {
  cluster = await startCluster({ instances, env: { ...SIMULATOR_ENV, LOG_LEVEL: 'warn' } });
  const c = cluster;
  const sql = postgres(c.postgres.url, { max: 1, onnotice: () => {} });
  const postmaster = Number(readFileSync(path.join(c.postgres.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // What prepareSimulatorState reads: the load balancer's address and the banner naming the default tenant.
  const handle: BenchProcess = { label: `cluster of ${instances}`, url: c.url, child: c.instances[0].child, startupMs: 0, output: () => c.instances[0].output(), stop: async () => {} };
  return {
    label: `${instances} instance${instances > 1 ? 's' : ''}, PostgreSQL, HAProxy`,
    url: c.url,
    process: handle,
    pids: () => [...c.instances.map((i) => i.child.pid!), postmaster],
    async transactions() {
      const [row] = await sql`SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = current_database()`;
      return Number(row.n);
    },
    async stop() {
      await sql.end();
      await c.stop();
      cluster = undefined;
    },
  };
}

await buildSimulator();
const machine = machineDescription();
console.log(`cluster bench on ${machine}; ${options.rounds} rounds of ${options.seconds} s, ${options.connections} connections\n`);
const rows: Row[] = [];
for (const start of [embedded, () => clustered(1), () => clustered(2)]) {
  const deployment = await start();
  try {
    const state = await prepareSimulatorState(deployment.process);
    rows.push(...(await measure(deployment, simulatorTarget(deployment.process, state))));
  } finally {
    await deployment.stop();
  }
}

console.log('\n| deployment | scenario | req/s (median) | p50 ms | p99 ms | CPU µs/req | db round trips/req |\n|---|---|--:|--:|--:|--:|--:|');
for (const r of rows) console.log(`| ${r.deployment} | ${r.scenario} | ${r.perSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.cpuUsPerRequest.toFixed(0)} | ${r.dbRoundTrips === null ? '' : r.dbRoundTrips.toFixed(1)} |`);
mkdirSync(path.dirname(values.json!), { recursive: true });
writeFileSync(values.json!, JSON.stringify({ date: new Date().toISOString(), machine, options, rows }, null, 2));
console.log(`\nfigures: ${path.relative(process.cwd(), values.json!)}`);
process.exit(0);
