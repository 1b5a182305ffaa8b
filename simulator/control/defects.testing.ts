// Helpers of the defect-injection tests: a sandbox with defects switched on, waiting for the worker, and a
// local webhook receiver. Defects break the contract on purpose, so these tests read such responses with
// `unchecked: true` and show with assertDocumented that the contract check would have refused them.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatorConfig } from '../config.js';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';

export async function sandboxWith(defects: string[], config: Partial<SimulatorConfig> = {}): Promise<TestSandbox> {
  return startTestSandbox({ config: { defects, ...config } });
}

export async function waitFor(condition: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const enqueue = (s: TestSandbox, body: object = { skus: ['UDS-CHAIR-01'] }, headers: Record<string, string> = {}) =>
  s.call('POST', '/api/sima/batch', { body, headers, unchecked: true });

/** The job's status as stored (not as a defect may present it). */
export const storedStatus = async (s: TestSandbox, jobId: string) => (await s.sim.domains.jobs.get(s.identity.tenantId, jobId))?.status;

/** Enqueues a job and moves the virtual clock until the worker has COMPLETED it. */
export async function completedJob(s: TestSandbox): Promise<string> {
  const jobId = (await enqueue(s)).body.jobId as string;
  await waitFor(async () => {
    if ((await storedStatus(s, jobId)) === 'COMPLETED') return true;
    await s.admin('POST', '/_sim/clock/advance', { seconds: 60 });
    return false;
  }, `job ${jobId} COMPLETED`);
  return jobId;
}

/** A token exchange read without the contract check (for defects that break the exchange itself). */
export const exchange = (s: TestSandbox, key: string | null = s.identity.integrationKey) =>
  s.call('POST', '/api/auth/token/integration', { token: null, headers: key === null ? {} : { 'x-api-key': key }, unchecked: true });

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A webhook receiver on 127.0.0.1 answering `status` to every delivery it records. */
export async function webhookReceiver(status = 204): Promise<{ url: string; target: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `http://${target}/hooks/svc`, target, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
