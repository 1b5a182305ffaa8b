// A local webhook receiver for job events (spec 6) and the signature check every receiver should make.
//
// Signature (spec 6): the message is `<X-SVC-Timestamp>.<raw body>`, the digest the hex HMAC-SHA256 of it
// keyed with the subscription's secret, the header `X-SVC-Signature: v1=<digest>`. A receiver checks the
// `v1=` prefix, compares in constant time, and may reject timestamps more than 300 seconds old. The body must
// be verified exactly as received: parse it only after the check.
// Delivery (spec 6): any 2xx is success (answer fast, work afterwards); the same delivery id comes again on a
// retry (`X-SVC-Delivery-ID`, equal to the body's `id`), so deliveries are deduplicated by it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Schemas } from './client.js';

const SIGNATURE_PREFIX = 'v1=';
const MAX_TIMESTAMP_AGE_SECONDS = 300;

export type Verdict = { ok: true } | { ok: false; reason: string };

/** Verifies one delivery's signature (spec 6). `nowSeconds`: the receiver's clock, in Unix seconds. */
export function verifySignature(secret: string, headers: IncomingHttpHeaders, rawBody: Buffer, nowSeconds: number): Verdict {
  const signature = headerOf(headers, 'x-svc-signature');
  const timestamp = headerOf(headers, 'x-svc-timestamp');
  if (!signature) return { ok: false, reason: 'no X-SVC-Signature header' };
  if (!signature.startsWith(SIGNATURE_PREFIX)) return { ok: false, reason: 'X-SVC-Signature does not start with v1=' };
  if (!timestamp || !/^\d+$/.test(timestamp)) return { ok: false, reason: 'X-SVC-Timestamp is not a Unix timestamp' };
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  const given = Buffer.from(signature.slice(SIGNATURE_PREFIX.length), 'hex');
  // timingSafeEqual needs equal lengths; a wrong length is simply a mismatch.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature mismatch' };
  if (nowSeconds - Number(timestamp) > MAX_TIMESTAMP_AGE_SECONDS) return { ok: false, reason: `timestamp more than ${MAX_TIMESTAMP_AGE_SECONDS} s old (a replay?)` };
  return { ok: true };
}

const headerOf = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

type JobDelivery = Schemas['WebhookDelivery'];

export interface WebhookReceiver {
  /** The URL the sandbox posts to. */
  url: string;
  /** The webhook fields of an enqueue body (spec 6, top-level form). */
  subscription(): { webhookUrl: string; webhookSecret: string; webhookEvents: Array<Schemas['WebhookEvent']> };
  /** Resolves with the first verified delivery for the job (whenever it came). */
  delivery(jobId: string): Promise<JobDelivery>;
  /** The same, or an error after `timeoutMs`. */
  waitFor(jobId: string, timeoutMs: number): Promise<JobDelivery>;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  host?: string;
  port?: number;
  /** When the sandbox reaches this machine through another address (a tunnel), the URL it should post to. */
  publicUrl?: string;
  log?: (line: string) => void;
  now?: () => number;
}

export async function startWebhookReceiver(options: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const log = options.log ?? ((line: string) => console.log(line));
  const now = options.now ?? (() => Date.now() / 1000);
  // A fresh secret per run: up to 512 characters (spec 6); 32 random bytes are plenty.
  const secret = randomBytes(32).toString('hex');
  const seen = new Set<string>();
  const byJob = new Map<string, { promise: Promise<JobDelivery>; resolve: (d: JobDelivery) => void }>();
  const slot = (jobId: string) => {
    let entry = byJob.get(jobId);
    if (!entry) {
      let resolve!: (d: JobDelivery) => void;
      const promise = new Promise<JobDelivery>((r) => (resolve = r));
      entry = { promise, resolve };
      byJob.set(jobId, entry);
    }
    return entry;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const verdict = verifySignature(secret, req.headers, raw, now());
      if (!verdict.ok) {
        log(`  webhook: rejected a delivery: ${verdict.reason}`);
        res.writeHead(401).end();
        return;
      }
      res.writeHead(204).end(); // spec 6.1: any 2xx is success; answer before doing the work
      const deliveryId = headerOf(req.headers, 'x-svc-delivery-id') ?? '';
      if (seen.has(deliveryId)) {
        log(`  webhook: delivery ${deliveryId} again (attempt ${headerOf(req.headers, 'x-svc-attempt')}): already handled`);
        return;
      }
      seen.add(deliveryId);
      const delivery = JSON.parse(raw.toString('utf8')) as JobDelivery;
      log(`  webhook: ${delivery.event} for ${delivery.job.type} job ${delivery.job.id}, signature verified (delivery ${deliveryId}, attempt ${headerOf(req.headers, 'x-svc-attempt')})`);
      slot(delivery.job.id).resolve(delivery);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = options.publicUrl ?? `http://${host}:${address.port}/webhooks/jobs`;
  return {
    url,
    subscription: () => ({ webhookUrl: url, webhookSecret: secret, webhookEvents: ['job.completed', 'job.failed'] }),
    delivery: (jobId) => slot(jobId).promise,
    waitFor(jobId, timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no webhook for job ${jobId} within ${Math.round(timeoutMs / 1000)} s: is ${url} reachable from the sandbox?`)), timeoutMs);
      });
      return Promise.race([slot(jobId).promise, timeout]).finally(() => clearTimeout(timer));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
