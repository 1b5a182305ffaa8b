// issue 30's hostile load against a simulator process, shared by `npm run bench -- --hostile`
// (scripts/bench/hostile.ts) and simulator/hostile-uploads.test.ts: the cases sent concurrently, as many
// as the default caps admit (8 of the upload family's 20 queued jobs, 9 of the upload bucket's 30 a
// minute), while /healthz is timed and the process's resident set sampled every 50 ms:
//   - eight XLSX workbooks whose sheet is 512 MiB of spaces (about 520 KB each on the wire), to
//     POST /api/catalog/upload;
//   - a 5.9 MB JSON body of 500,000 keys to POST /api/trade/landed-cost;
//   - a CSV of 1,000,000 columns to POST /api/catalog/upload.
// Then every accepted job is polled to its end. Nothing here asserts: the caller judges the figures.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { spacesXlsx, wideCsv } from './hostile-inputs.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The workbook of issue 30: a sheet of 512 MiB of spaces. */
export const HOSTILE_SPACES = 512 * 1024 * 1024;

/** A JSON body of `keys` keys in one object (500,000 make 5.9 MB), a plausible landed-cost field first. */
export function manyKeysJson(keys: number): Buffer {
  const parts: string[] = ['{"destinationCountry":"CA"'];
  for (let i = 0; i < keys; i++) parts.push(`,"k${i}":${i % 10}`);
  parts.push('}');
  return Buffer.from(parts.join(''));
}

/** Resident set (VmRSS) and its peak so far (VmHWM) of a process, MB; NaN once it is gone. */
export function memoryMb(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: Number.NaN, peak: Number.NaN };
  }
}

/** /healthz timed every `everyMs` and the process's memory sampled, until stopped. */
export interface Watch {
  /** Once the prober is warm: probes before this are not counted. */
  ready(): Promise<void>;
  stop(): Promise<WatchReport>;
}

export interface WatchReport {
  /** /healthz round trips (ms), in order; a failed or non-200 answer counts in `failures`. */
  healthzMs: number[];
  failures: string[];
  /** Highest VmRSS sampled and the kernel's own peak (VmHWM), MB. */
  peakRssMb: number;
  samples: number;
}

/**
 * The /healthz prober runs in a process of its own: in the process that builds and sends the hostile
 * requests, a busy event loop of the sender's would be timed as the server's latency.
 */
const PROBER = `
const [url, everyMs] = [process.argv[1], Number(process.argv[2])];
const healthzMs = [], failures = [];
let running = true, probes = 0;
process.stdin.on('data', () => (running = false));
while (running) {
  // The first probes warm the client up (a new process's first fetch): timed only after 'ready'.
  if (++probes === 6) { healthzMs.length = 0; failures.length = 0; process.stderr.write('ready\\n'); }
  const started = performance.now();
  try {
    const res = await fetch(url + '/healthz', { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    healthzMs.push(performance.now() - started);
    if (res.status !== 200) failures.push('healthz ' + res.status);
  } catch (error) {
    failures.push('healthz: ' + error.message);
  }
  await new Promise((resolve) => setTimeout(resolve, everyMs));
}
process.stdout.write(JSON.stringify({ healthzMs, failures }));
process.exit(0);
`;

export function watch(url: string, pid: number, everyMs = 50): Watch {
  let peakRssMb = 0;
  let samples = 0;
  const sample = () => {
    const memory = memoryMb(pid);
    peakRssMb = Math.max(peakRssMb, Number.isNaN(memory.rss) ? 0 : memory.rss, Number.isNaN(memory.peak) ? 0 : memory.peak);
    samples++;
  };
  const sampler = setInterval(sample, everyMs);
  const prober = spawn(process.execPath, ['--input-type=module', '-e', PROBER, url, String(everyMs)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  prober.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const ready = new Promise<void>((resolve) => prober.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve()));
  const exited = new Promise<void>((resolve) => prober.once('exit', () => resolve()));
  return {
    ready: () => Promise.race([ready, exited]),
    async stop() {
      clearInterval(sampler);
      sample();
      prober.stdin!.end('stop\n');
      await exited;
      const { healthzMs, failures } = JSON.parse(out || '{"healthzMs":[],"failures":["the prober wrote nothing"]}') as { healthzMs: number[]; failures: string[] };
      return { healthzMs, failures, peakRssMb, samples };
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface Sent {
  what: string;
  status: number;
  ms: number;
  code?: string;
  jobId?: string;
}

export interface HostileFiles {
  xlsx: Buffer;
  csv: Buffer;
  json: Buffer;
}

/** The hostile inputs; `sizes` says how the workbook states its sizes (hostile-inputs.ts zipArchive). */
export async function hostileFiles(options: { sizes?: 'local' | 'descriptor' | 'understated'; columns?: number; keys?: number } = {}): Promise<HostileFiles> {
  return {
    xlsx: await spacesXlsx(HOSTILE_SPACES, { sizes: options.sizes ?? 'local' }),
    csv: wideCsv(options.columns ?? 1_000_000),
    json: manyKeysJson(options.keys ?? 500_000),
  };
}

async function upload(url: string, token: string, fileName: string, type: string, content: Buffer): Promise<Sent> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type }), fileName);
  const started = performance.now();
  const res = await fetch(`${url}/api/catalog/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form, signal: AbortSignal.timeout(60_000) });
  const body = (await res.json().catch(() => ({}))) as { jobId?: string; code?: string };
  return { what: `catalog upload ${fileName}`, status: res.status, ms: performance.now() - started, code: body.code, jobId: body.jobId };
}

/** Sends `xlsxCount` workbooks, the JSON body and (when `csv`) the wide CSV, all at once. */
export async function sendHostile(url: string, token: string, files: HostileFiles, options: { xlsxCount?: number; csv?: boolean; json?: boolean } = {}): Promise<Sent[]> {
  const sends: Array<Promise<Sent>> = [];
  for (let i = 0; i < (options.xlsxCount ?? 8); i++) sends.push(upload(url, token, `spaces-${i + 1}.xlsx`, XLSX_TYPE, files.xlsx));
  if (options.csv !== false) sends.push(upload(url, token, 'wide.csv', 'text/csv', files.csv));
  if (options.json !== false) {
    sends.push(
      (async () => {
        const started = performance.now();
        const res = await fetch(`${url}/api/trade/landed-cost`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: new Uint8Array(files.json), signal: AbortSignal.timeout(60_000) });
        const body = (await res.json().catch(() => ({}))) as { code?: string };
        return { what: `landed-cost ${(files.json.length / 1e6).toFixed(1)} MB JSON`, status: res.status, ms: performance.now() - started, code: body.code };
      })(),
    );
  }
  return Promise.all(sends);
}

export interface JobEnd {
  jobId: string;
  status: string;
  error: string | null;
}

/** Polls each job until COMPLETED or FAILED (or `timeoutMs`: then its last status). */
export async function waitForJobs(url: string, token: string, jobIds: string[], timeoutMs: number): Promise<JobEnd[]> {
  const deadline = Date.now() + timeoutMs;
  const ends: JobEnd[] = [];
  for (const jobId of jobIds) {
    for (;;) {
      const res = await fetch(`${url}/api/jobs/${jobId}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) }).catch(() => null);
      const job = res && res.status === 200 ? ((await res.json()) as { status: string; error: string | null }) : null;
      if (job && (job.status === 'COMPLETED' || job.status === 'FAILED')) {
        ends.push({ jobId, status: job.status, error: job.error });
        break;
      }
      if (Date.now() > deadline) {
        ends.push({ jobId, status: job?.status ?? 'unreadable', error: null });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return ends;
}

/** A bearer for the integration key `key`. */
export async function tokenFor(url: string, key: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': key } });
  if (res.status !== 200) throw new Error(`token exchange answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** One line of figures: healthz max and p99, peak RSS. */
export const describeWatch = (report: WatchReport) =>
  `/healthz max ${Math.max(...report.healthzMs).toFixed(1)} ms, p99 ${percentile(report.healthzMs, 99).toFixed(1)} ms over ${report.healthzMs.length} probes (${report.failures.length} failed); peak RSS ${report.peakRssMb.toFixed(0)} MB`;
