// What the upload benchmarks share (bench:large, large-inputs.ts): the simulator as a real process on a
// temp store with fast jobs, a token, an upload streamed from disk, waiting for its job to end, and the
// process's resident set (VmRSS, and VmHWM: the peak) read from /proc (Linux). Every request has a time
// limit, so a stuck server fails the benchmark instead of hanging it.
import { openAsBlob, readFileSync } from 'node:fs';
import path from 'node:path';
import { startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';

export const RSS_TARGET_MB = 600;
const KEY = 'tfk_bench_upload';
/** A request's time limit: an upload of 50 MB to localhost takes seconds, a job poll milliseconds. */
const REQUEST_TIMEOUT_MS = 5 * 60_000;

/** VmRSS and VmHWM (peak) of a process, in MB. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

async function json(res: Response, expected: number) {
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${res.url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export interface UploadServer {
  server: SimulatorProcess;
  pid: number;
  /** Streams `file` as the form's `file` part, with `fields`; answers the 202 receipt. */
  upload(endpoint: string, file: string, fields?: Record<string, string>): Promise<{ jobId: string }>;
  /** POSTs a JSON body to an enqueue endpoint; answers the 202 receipt. */
  enqueue(endpoint: string, body: unknown): Promise<{ jobId: string }>;
  /** Reads the job every 500 ms until COMPLETED or FAILED. */
  waitFor(jobId: string, timeoutMs: number): Promise<Record<string, any>>;
}

/** A simulator on `storeFile` (`maxOldSpaceMb` caps its heap; `nodeOptions` adds flags, e.g. --heap-prof;
 *  `journal`: the journal store at that file, SIM_STORE=journal), and a token of its default tenant. */
export async function startUploadServer(storeFile: string, maxOldSpaceMb?: string, nodeOptions?: string, journal = false): Promise<UploadServer> {
  const flags = [maxOldSpaceMb ? `--max-old-space-size=${maxOldSpaceMb}` : '', nodeOptions ?? ''].filter(Boolean).join(' ');
  const server = await startSimulatorProcess({
    ...(journal ? { SIM_STORE: `journal:${storeFile}` } : { SIM_DB: storeFile }),
    SIM_ADMIN_TOKEN: 'bench-admin',
    SIM_INTEGRATION_KEY: KEY,
    SIM_JOB_START_DELAY_MS: '10',
    SIM_JOB_PROCESSING_MS: '20',
    ...(flags ? { NODE_OPTIONS: flags } : {}),
  });
  const { access_token: token } = await json(await fetch(`${server.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }), 200);
  const auth = { authorization: `Bearer ${token}` };
  return {
    server,
    pid: server.child.pid!,
    async upload(endpoint, file, fields = {}) {
      const form = new FormData();
      form.append('file', await openAsBlob(file, { type: 'text/csv' }), path.basename(file));
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      return json(await fetch(`${server.url}${endpoint}`, { method: 'POST', headers: auth, body: form, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }), 202);
    },
    async enqueue(endpoint, body) {
      const headers = { ...auth, 'content-type': 'application/json' };
      return json(await fetch(`${server.url}${endpoint}`, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }), 202);
    },
    async waitFor(jobId, timeoutMs) {
      for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 500))) {
        const job = await json(await fetch(`${server.url}/api/jobs/${jobId}`, { headers: auth, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }), 200);
        if (job.status === 'COMPLETED' || job.status === 'FAILED') return job;
        if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs / 1000} s`);
      }
    },
  };
}
