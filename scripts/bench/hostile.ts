// npm run bench -- --hostile (issue 30 item 2): the simulator as `npm start` runs it, with the default caps,
// under the hostile load of simulator/testing/hostile-load.ts (eight XLSX of 512 MiB of spaces, a 5.9 MB
// JSON body of 500,000 keys, a 1,000,000-column CSV, all at once). Reports the process's peak resident set
// and /healthz latency (max, p99) throughout, how each request was answered and how each job ended; the
// targets: the process never dies, peak RSS under 600 MB, /healthz under 100 ms, every job FAILED with a
// reason, the JSON body refused. A report, exit code 1 when a target is missed.
//
//   npm run bench -- --hostile [--sizes understated|descriptor|local] [--json FILE]
//     --sizes: how the workbooks state their inflated sizes (hostile-inputs.ts): `understated` (default)
//     lies in both zip headers, so only the bytes counted while inflating can stop it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { describeWatch, hostileFiles, percentile, sendHostile, tokenFor, waitForJobs, watch } from '../../simulator/testing/hostile-load.js';
import { buildSimulator } from '../build-simulator.mjs';
import { benchTempDir } from './cli.js';
import { cpuMs, ROOT, startSimulator } from './processes.js';

export const HOSTILE_TARGETS = { peakRssMb: 600, healthzMs: 100 };
const KEY = 'tfk_bench_hostile';

export async function runHostileBench(options: { sizes?: 'local' | 'descriptor' | 'understated'; json?: string; cpuProfileDir?: string } = {}): Promise<boolean> {
  const sizes = options.sizes ?? 'understated';
  await buildSimulator();
  const files = await hostileFiles({ sizes });
  console.log(`hostile inputs: 8 x ${files.xlsx.length} B XLSX (512 MiB of spaces, sizes ${sizes}), ${files.csv.length} B CSV of 1,000,000 columns, ${files.json.length} B JSON of 500,000 keys`);
  const sim = await startSimulator({ SIM_DB: path.join(benchTempDir('sim-hostile'), 'store.mdb'), SIM_ADMIN_TOKEN: 'bench-hostile-admin', SIM_INTEGRATION_KEY: KEY }, 'simulator', options.cpuProfileDir);
  const pid = sim.child.pid!;
  try {
    const token = await tokenFor(sim.url, KEY);
    // The same probes on the idle server first: on a shared machine, what contention alone costs.
    const idle = watch(sim.url, pid);
    await idle.ready();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const baseline = await idle.stop();
    console.log(`idle baseline: ${describeWatch(baseline)}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
    const watching = watch(sim.url, pid);
    await watching.ready();
    const cpuBefore = cpuMs(pid);
    const started = Date.now();
    const sent = await sendHostile(sim.url, token, files);
    const jobs = await waitForJobs(sim.url, token, sent.flatMap((s) => (s.jobId ? [s.jobId] : [])), 120_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the aftermath, still watched
    const report = await watching.stop();
    const serverCpuMs = cpuMs(pid) - cpuBefore;
    const alive = sim.child.exitCode === null && sim.child.signalCode === null;
    for (const s of sent) console.log(`  ${s.what}: ${s.status}${s.code ? ` ${s.code}` : ''} in ${s.ms.toFixed(0)} ms${s.jobId ? ` (job ${s.jobId})` : ''}`);
    for (const j of jobs) console.log(`  job ${j.jobId}: ${j.status}${j.error ? ` "${j.error}"` : ''}`);
    console.log(`\n${describeWatch(report)}; all done in ${((Date.now() - started) / 1000).toFixed(1)} s using ${serverCpuMs} ms of the server's CPU; process ${alive ? 'alive' : 'DEAD'}`);
    const healthzMax = Math.max(...report.healthzMs);
    const verdicts = [
      { target: 'the process never dies', pass: alive && report.failures.length === 0 },
      { target: `peak RSS < ${HOSTILE_TARGETS.peakRssMb} MB (${report.peakRssMb.toFixed(0)} MB)`, pass: report.peakRssMb < HOSTILE_TARGETS.peakRssMb },
      { target: `/healthz < ${HOSTILE_TARGETS.healthzMs} ms throughout (max ${healthzMax.toFixed(1)} ms)`, pass: healthzMax < HOSTILE_TARGETS.healthzMs },
      { target: 'every job ends FAILED with a reason', pass: jobs.length > 0 && jobs.every((j) => j.status === 'FAILED' && Boolean(j.error)) },
      { target: 'every request answered in the envelope, 2xx or 4xx', pass: sent.every((s) => s.status === 202 || (s.status >= 400 && s.status < 500 && Boolean(s.code))) },
    ];
    for (const v of verdicts) console.log(`${v.pass ? 'PASS' : 'FAIL'} ${v.target}`);
    const json = options.json ?? path.join(ROOT, 'build', 'bench', 'hostile.json');
    mkdirSync(path.dirname(json), { recursive: true });
    writeFileSync(
      json,
      JSON.stringify({ date: new Date().toISOString(), sizes, loadAverage: loadavg(), baseline: { max: Math.max(...baseline.healthzMs), p99: percentile(baseline.healthzMs, 99) }, serverCpuMs, sent, jobs, peakRssMb: report.peakRssMb, healthz: { max: healthzMax, p99: percentile(report.healthzMs, 99), probes: report.healthzMs.length, failures: report.failures }, alive, verdicts }, null, 2),
    );
    console.log(`figures: ${path.relative(process.cwd(), json)}`);
    return verdicts.every((v) => v.pass);
  } finally {
    await sim.stop();
  }
}
