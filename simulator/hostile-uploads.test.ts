// issue 30: eight small XLSX files must not take the sandbox down, nor keep it down. Each workbook's sheet
// is 512 MiB of spaces (about 520 KB deflated, built here, never committed) and both its zip headers
// understate the inflated size, so only the bytes counted while inflating can stop it
// (kernel/uploads/inflate-guard.ts). Against a started sandbox with the default caps (8 of the upload
// family's 20 queued jobs, 8 of the upload bucket's 30 a minute), then again with a SIGKILL right after the
// uploads were accepted and a restart on the same store: /healthz answers throughout, every job ends FAILED
// with its reason (spec 3.1), and the process's peak resident set is printed and bounded.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWatch, hostileFiles, sendHostile, tokenFor, waitForJobs, watch, type HostileFiles, type JobEnd } from './testing/hostile-load.js';
import { startSimulatorProcess, type SimulatorProcess } from './testing/process.js';

const KEY = 'tfk_hostile_uploads';
const PEAK_RSS_BOUND_MB = 600;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-hostile-uploads-'));
const env = { SIM_DB: path.join(dataDir, 'store.mdb'), SIM_ADMIN_TOKEN: 'hostile-uploads-admin', SIM_INTEGRATION_KEY: KEY };
let sim: SimulatorProcess | undefined;

afterAll(async () => {
  await sim?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const failedForItsFile = (jobs: JobEnd[]) => jobs.map((j) => [j.status, /^spaces-\d\.xlsx is beyond the sandbox's bounds for an upload: /.test(j.error ?? '') ? 'its reason' : j.error]);

describe('eight XLSX workbooks of 512 MiB of spaces', () => {
  let files: HostileFiles;
  const jobIds: string[] = [];

  it('fail as jobs, each with its reason, while the sandbox answers /healthz and stays under the RSS bound', async () => {
    files = await hostileFiles({ sizes: 'understated', columns: 2, keys: 1 });
    expect(files.xlsx.length).toBeLessThan(600_000);
    sim = await startSimulatorProcess(env);
    const token = await tokenFor(sim.url, KEY);
    const watching = watch(sim.url, sim.child.pid!);
    await watching.ready();
    const sent = await sendHostile(sim.url, token, files, { csv: false, json: false });
    expect(sent.map((s) => s.status)).toEqual(Array(8).fill(202));
    jobIds.push(...sent.map((s) => s.jobId!));
    const jobs = await waitForJobs(sim.url, token, jobIds, 60_000);
    const report = await watching.stop();
    console.log(`eight hostile XLSX: ${describeWatch(report)}`);
    expect(failedForItsFile(jobs)).toEqual(Array(8).fill(['FAILED', 'its reason']));
    expect(report.failures).toEqual([]);
    expect(sim.child.exitCode).toBeNull();
    expect(report.peakRssMb).toBeLessThan(PEAK_RSS_BOUND_MB);
  }, 110_000);

  it('fail again after a SIGKILL while they wait and a restart on the same store, the earlier ones staying FAILED', async () => {
    const token = await tokenFor(sim!.url, KEY);
    const sent = await sendHostile(sim!.url, token, files, { csv: false, json: false });
    expect(sent.map((s) => s.status)).toEqual(Array(8).fill(202));
    await sim!.kill('SIGKILL'); // the default 250 ms start delay: the jobs are still in flight
    sim = await startSimulatorProcess(env);
    const watching = watch(sim.url, sim.child.pid!);
    await watching.ready();
    const again = await tokenFor(sim.url, KEY);
    const jobs = await waitForJobs(sim.url, again, [...jobIds, ...sent.map((s) => s.jobId!)], 60_000);
    const report = await watching.stop();
    console.log(`after the restart: ${describeWatch(report)}`);
    expect(failedForItsFile(jobs)).toEqual(Array(16).fill(['FAILED', 'its reason']));
    expect(report.failures).toEqual([]);
    expect(sim.child.exitCode).toBeNull();
    expect(report.peakRssMb).toBeLessThan(PEAK_RSS_BOUND_MB);
  }, 110_000);
});
