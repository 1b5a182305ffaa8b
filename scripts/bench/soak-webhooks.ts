// The soak's webhook receiver (spec 6): a loopback HTTP server the simulator delivers to (allowed through
// SIM_WEBHOOK_ALLOW_TARGETS, since spec 6 rule 4 blocks loopback targets otherwise). It checks what a
// receiver would check, the signature over `<timestamp>.<raw body>` with the job's secret and the delivery
// id header equal to the body's `id`, answers 204, and remembers which jobs it heard about.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Tally } from './soak-stats.js';

export const WEBHOOK_SECRET = 'soak-webhook-secret';

export interface WebhookReceiver {
  url: string;
  /** Job id -> the events received for it (a retry of one delivery id counts once). */
  received: Map<string, string[]>;
  deliveries: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(tally: Tally): Promise<WebhookReceiver> {
  const received = new Map<string, string[]>();
  const seenDeliveries = new Set<string>();
  const state = { deliveries: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.deliveries++;
      const raw = Buffer.concat(chunks).toString('utf8');
      const problem = judge(req.headers, raw);
      if (problem) tally.error(`webhook: ${problem}`, `${JSON.stringify(req.headers)} ${raw.slice(0, 200)}`);
      else {
        const body = JSON.parse(raw) as { id: string; event: string; job: { id: string } };
        if (!seenDeliveries.has(body.id)) {
          seenDeliveries.add(body.id);
          received.set(body.job.id, [...(received.get(body.job.id) ?? []), body.event]);
        }
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    get deliveries() {
      return state.deliveries;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What is wrong with a delivery (spec 6 headers, body and signature), or null. */
function judge(headers: http.IncomingHttpHeaders, raw: string): string | null {
  let body: { id?: unknown; event?: unknown; job?: { id?: unknown; status?: unknown } };
  try {
    body = JSON.parse(raw);
  } catch {
    return 'body is not JSON';
  }
  if (typeof body.id !== 'string' || typeof body.job?.id !== 'string') return 'body lacks id or job.id';
  if (headers['x-svc-delivery-id'] !== body.id) return 'X-SVC-Delivery-ID differs from the body id';
  if (headers['x-svc-event'] !== body.event) return 'X-SVC-Event differs from the body event';
  if (body.event !== 'job.completed' || body.job.status !== 'COMPLETED') return `event ${String(body.event)} for a job ${String(body.job.status)} (every soak job should complete)`;
  const timestamp = String(headers['x-svc-timestamp'] ?? '');
  const expected = Buffer.from(`v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${timestamp}.${raw}`).digest('hex')}`);
  const given = Buffer.from(String(headers['x-svc-signature'] ?? ''));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'signature does not verify';
  return null;
}
