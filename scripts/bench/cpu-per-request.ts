// CPU per request of one scenario, measured without a load generator's noise: requests one at a time
// (one connection, no concurrency), the server's CPU time (all its threads, /proc) divided by the requests,
// for this checkout's simulator and another checkout's, in alternating rounds:
//   npm run bench:cpu -- --baseline DIR [--only sima-batch,token] [--rounds 6] [--requests 1000]
// Throughput under 10 connections (npm run bench) moves with the machine's neighbours; CPU time per
// request moves far less, so a change of a few percent in what a request costs shows here first.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchTempDir } from './cli.js';
import { median } from './load.js';
import { cpuMs, startBaselineSimulator, startSimulator, type BenchProcess } from './processes.js';
import { prepareSimulatorState, SIMULATOR_ENV, simulatorTarget } from './scenarios.js';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    only: { type: 'string', default: 'sima-batch,sima-results,token,get-job,landed-cost' },
    rounds: { type: 'string', default: '6' },
    requests: { type: 'string', default: '1000' },
    'cpu-prof': { type: 'string' },
  },
});
if (!values.baseline) throw new Error('--baseline DIR: the checkout to compare with');
const rounds = Number(values.rounds);
const requests = Number(values.requests);
const tmp = (label: string) => path.join(benchTempDir(`cpu-${label}`), 'store.mdb');

/** `--cpu-prof DIR`: each server under V8's sampling profiler, its profile in DIR/current and DIR/baseline. */
const profileDir = (name: string) => (values['cpu-prof'] ? path.resolve(values['cpu-prof'], name) : undefined);
const servers: Record<string, BenchProcess> = {
  current: await startSimulator({ SIM_DB: tmp('current'), ...SIMULATOR_ENV }, 'current', profileDir('current')),
  baseline: await startBaselineSimulator(path.resolve(values.baseline), tmp('baseline'), SIMULATOR_ENV, profileDir('baseline')),
};
const targets = Object.fromEntries(await Promise.all(Object.entries(servers).map(async ([name, p]) => [name, simulatorTarget(p, await prepareSimulatorState(p))] as const)));

for (const scenario of values.only!.split(',')) {
  const perRequest: Record<string, number[]> = { current: [], baseline: [] };
  for (let round = 0; round < rounds + 1; round++) {
    for (const name of round % 2 ? ['baseline', 'current'] : ['current', 'baseline']) {
      const spec = targets[name].request(scenario);
      const pid = servers[name].child.pid!;
      const before = cpuMs(pid);
      for (let i = 0; i < requests; i++) {
        const res = await fetch(servers[name].url + spec.path, { method: spec.method, headers: spec.headers, body: spec.body });
        await res.arrayBuffer();
        if (res.status !== spec.expect) throw new Error(`${name} ${scenario}: ${res.status}`);
      }
      // Round 0 warms both up (JIT, caches) and is not counted.
      if (round > 0) perRequest[name].push(((cpuMs(pid) - before) * 1000) / requests);
    }
  }
  const { current: c, baseline: b } = perRequest;
  const ratios = c.map((x, i) => b[i] / x);
  console.log(`${scenario}: CPU µs/request current ${c.map((x) => x.toFixed(0)).join(', ')} | baseline ${b.map((x) => x.toFixed(0)).join(', ')} | baseline/current ${(median(ratios) * 100).toFixed(1)} % (>100 %: current cheaper)`);
}
for (const p of Object.values(servers)) await p.stop();
