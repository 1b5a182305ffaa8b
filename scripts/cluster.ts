// npm run cluster — a hosted sandbox on this machine (issue 17): a PostgreSQL server in a temporary
// directory, N simulator instances over it and HAProxy in front, from the machine's packages
// (simulator/testing/cluster.ts). Prints the addresses and credentials; Ctrl-C or SIGTERM stops everything
// it started and removes its temporary directories (the database is thrown away).
//
//   npm run cluster -- [--instances 2]
import { parseArgs } from 'node:util';
import { startCluster, type Cluster } from '../simulator/testing/cluster.js';

const USAGE = `Usage: npm run cluster -- [--instances N]

Starts a local hosted sandbox: PostgreSQL (initdb in a temporary directory), N simulator instances sharing
it (SIM_STORE, one artifacts directory) and HAProxy balancing over them, all on 127.0.0.1. Prints the load
balancer's address, each instance's, the database URL, the admin token and the integration key.
Ctrl-C (or SIGTERM) stops everything it started; the database is temporary.

Options:
  --instances N   simulator instances behind the load balancer (2)
  -h, --help      this text

Environment: SIM_ADMIN_TOKEN and SIM_INTEGRATION_KEY pin the credentials (random otherwise); the other
SIM_* settings of npm start (npm start -- --help) apply to every instance.
`;

/** Stops with one line on stderr: the user's mistake, not the program's. */
const refuse = (line: string): never => {
  process.stderr.write(`npm run cluster: ${line}\n`);
  process.exit(2);
};

const { values } = (() => {
  try {
    return parseArgs({ options: { instances: { type: 'string', default: '2' }, help: { type: 'boolean', short: 'h', default: false } } });
  } catch (error) {
    return refuse((error as Error).message);
  }
})();
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const instances = Number(values.instances);
if (!Number.isInteger(instances) || instances < 1 || instances > 16) refuse(`--instances must be a whole number from 1 to 16, not ${values.instances}`);

let cluster: Cluster | undefined;
let up = false;
let stoppingSince = 0;
const stop = async (signal: string) => {
  if (stoppingSince) {
    // One Ctrl-C arrives twice (from the terminal, and forwarded by npm): only a later one means "now".
    // Leaving at once is safe: the reaper (simulator/testing/reaper.ts) cleans up after this process.
    if (Date.now() - stoppingSince > 2_000) process.exit(130);
    return;
  }
  stoppingSince = Date.now();
  process.stderr.write(`${signal}: stopping the load balancer, the instances and PostgreSQL... (again to leave at once)\n`);
  try {
    await cluster?.stop();
    process.stderr.write('stopped.\n');
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

const pinned = Object.fromEntries(['SIM_ADMIN_TOKEN', 'SIM_INTEGRATION_KEY'].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));
process.stderr.write(`starting PostgreSQL, ${instances} simulator instance${instances === 1 ? '' : 's'} and HAProxy...\n`);
try {
  // The processes' own lines (warnings and errors: LOG_LEVEL=warn) once the cluster is up; the banners are summed up below.
  cluster = await startCluster({ instances, env: pinned, log: (line) => up && process.stderr.write(`${line}\n`) });
} catch (error) {
  process.stderr.write(`npm run cluster: ${(error as Error).message}\n`);
  process.exit(1);
}
up = true;
const rows: Array<[string, string]> = [
  ['load balancer', cluster.url],
  ...cluster.instances.map((i): [string, string] => [`instance ${i.id}`, i.url]),
  ['database', cluster.postgres.url],
  ['admin token', cluster.adminToken],
  ['integration key', cluster.apiKey],
];
const width = Math.max(...rows.map(([label]) => label.length)) + 2;
process.stdout.write(
  [
    `sandbox cluster: ${instances} instance${instances === 1 ? '' : 's'} over PostgreSQL behind HAProxy`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}${value}`),
    'Ctrl-C stops everything it started (the database is temporary).',
    '',
  ].join('\n'),
);
for (const instance of cluster.instances) {
  instance.child.once('exit', (code, signal) => {
    if (!stoppingSince) process.stderr.write(`instance ${instance.id} exited (${signal ?? code}); the load balancer sends its traffic to the others\n`);
  });
}
