// The simulator as a real process for the robustness tests (simulator/fuzz.test.ts, simulator/robustness.test.ts):
// a tenant with its rate buckets lifted, a bearer, a kept-alive HTTP client that sends bytes exactly as
// given, what makes an answer wrong (a 5xx, an error outside the envelope), and the process's RSS.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startSimulatorProcess, type SimulatorProcess } from './process.js';

interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface HostileTarget {
  sim: SimulatorProcess;
  bearer: string;
  integrationKey: string;
  adminToken: string;
  send(req: RawRequest): Promise<Answer>;
  /** Resident set of the simulator process, in MB (Linux /proc). */
  rssMb(): number;
  close(): Promise<void>;
}

const ADMIN_TOKEN = 'hostile-admin-token';

export async function startHostileTarget(env: Record<string, string> = {}): Promise<HostileTarget> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-hostile-'));
  const sim = await startSimulatorProcess({ SIM_DB: path.join(dataDir, 'store.mdb'), SIM_ADMIN_TOKEN: ADMIN_TOKEN, SIM_JOB_START_DELAY_MS: '10', SIM_JOB_PROCESSING_MS: '20', ...env });
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const url = new URL(sim.url);

  const sendOnce = (req: RawRequest) =>
    new Promise<Answer>((resolve, reject) => {
      const headers = { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) };
      const outgoing = request({ host: url.hostname, port: url.port, method: req.method, path: req.path, agent, headers, timeout: 60_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 60 s')));
      outgoing.on('error', (error) => reject(Object.assign(error, { reusedSocket: outgoing.reusedSocket })));
      outgoing.end(req.body);
    });
  /** A connection the server closed as idle while a request was written on it (the keep-alive race: the request never reached the server) is retried once. */
  const send = async (req: RawRequest) => {
    try {
      return await sendOnce(req);
    } catch (error) {
      if ((error as { reusedSocket?: boolean }).reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET') return sendOnce(req);
      throw error;
    }
  };
  const json = async (req: RawRequest) => {
    const answer = await send(req);
    if (answer.status >= 300) throw new Error(`${req.method} ${req.path}: ${answer.status} ${answer.text}`);
    return JSON.parse(answer.text);
  };
  const asAdmin = (method: string, urlPath: string, body: unknown) =>
    json({ method, path: urlPath, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });

  try {
    const tenant = await asAdmin('POST', '/_sim/tenants', { name: 'hostile' });
    // The tests are about inputs, not throttling: the rate buckets are lifted (queue caps stay: their 429 is an answer like any).
    const lifted = { limit: 1_000_000, windowMs: 60_000 };
    await asAdmin('PUT', `/_sim/tenants/${tenant.tenantId}/settings`, { rateLimits: { read: lifted, write: lifted, upload: lifted } });
    const exchange = await json({ method: 'POST', path: '/api/auth/token/integration', headers: { 'x-api-key': tenant.integrationKey } });
    return {
      sim,
      bearer: exchange.access_token,
      integrationKey: tenant.integrationKey,
      adminToken: ADMIN_TOKEN,
      send,
      rssMb() {
        const line = readFileSync(`/proc/${sim.child.pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
        return line ? Number(line[1]) / 1024 : NaN;
      },
      async close() {
        agent.destroy();
        await sim.kill();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    agent.destroy();
    await sim.kill();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** What is wrong with an answer (empty when nothing): a 5xx, or an error outside the envelope (spec 2.9, 7). */
export function problemsOf(answer: Answer): string[] {
  const problems: string[] = [];
  let body: { code?: unknown; message?: unknown } | undefined;
  try {
    body = answer.text ? JSON.parse(answer.text) : undefined;
  } catch {
    body = undefined;
  }
  // Spec 7: 503 FEATURE_DISABLED is a documented answer; any other 5xx is a failure of the server.
  if (answer.status >= 500 && !(answer.status === 503 && body?.code === 'FEATURE_DISABLED')) problems.push(`answered ${answer.status}`);
  if (!answer.headers['x-request-id']) problems.push('no X-Request-Id');
  if (answer.status >= 400) {
    if (!String(answer.headers['content-type'] ?? '').startsWith('application/json')) problems.push(`error content-type ${String(answer.headers['content-type'])}`);
    if (typeof body?.code !== 'string' || typeof body?.message !== 'string') problems.push('error outside the envelope { code, message }');
  }
  return problems;
}
