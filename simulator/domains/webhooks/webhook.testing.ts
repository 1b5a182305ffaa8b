// Test support for the webhooks domain: a real local receiver, a clock whose real part stands still (only
// advance() moves it, so retry gaps are exact), an independent signature check, and polling.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClock } from '../../kernel/clock.js';
import type { KernelDeps } from '../../kernel/deps.js';
import { createTestDeps } from '../../testing/kernel.js';
import type { SimulatorConfig } from '../../config.js';

interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
}

/** What the receiver answers to the n-th request (0-based): a status code, or 'hang' (never answer). */
export type Reply = (index: number) => number | 'hang';

export interface Receiver {
  port: number;
  target: string;
  url: string;
  requests: ReceivedRequest[];
  reply: Reply;
  close(): Promise<void>;
}

export async function startReceiver(reply: Reply = () => 200): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const receiver = { requests, reply } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = requests.length;
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      const answer = receiver.reply(index);
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    port,
    target: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

export const T0 = Date.parse('2026-11-02T14:00:00.000Z');

/** Test deps whose clock only moves on advance(): virtual instants are exact. */
export async function frozenDeps(options: { config?: Partial<SimulatorConfig>; file?: string } = {}): Promise<KernelDeps> {
  return createTestDeps({ ...options, clock: createClock({ realNow: () => T0 }) });
}

/** The receiver-side check of spec 6, written independently of the implementation. */
export function verifySignature(secret: string, headers: http.IncomingHttpHeaders, rawBody: string): boolean {
  const header = headers['x-svc-signature'];
  const timestamp = headers['x-svc-timestamp'];
  if (typeof header !== 'string' || typeof timestamp !== 'string' || !header.startsWith('v1=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex'), 'utf8');
  const given = Buffer.from(header.slice(3), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Polls `condition` (which may read the asynchronous store) until it holds, or fails naming `what`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const finishedJob = (overrides: { id: string; status?: 'COMPLETED' | 'FAILED'; tenantId?: string }) => ({
  tenantId: overrides.tenantId ?? 'd7c8a7c4-3a52-4d3e-9a55-0a1f1c0e9b11',
  job: {
    id: overrides.id,
    type: 'sima_validation',
    status: overrides.status ?? 'COMPLETED',
    progress: overrides.status === 'FAILED' ? 40 : 100,
    createdAt: '2026-11-02T13:59:00.000Z',
    updatedAt: '2026-11-02T14:00:00.000Z',
    result: overrides.status === 'FAILED' ? null : { skusScreened: 3 },
    error: overrides.status === 'FAILED' ? 'row 14: column hsCode is not a valid HS code' : null,
  },
});
