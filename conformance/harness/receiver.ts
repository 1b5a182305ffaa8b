// The built-in webhook receiver: an HTTP server that records every delivery exactly as received (raw body
// kept for signature checks) and can be told to fail the next deliveries to provoke retries.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedDelivery, ReceiverHandle } from './check.js';

export interface Receiver extends ReceiverHandle {
  close(): Promise<void>;
}

export async function startReceiver(options: { publicUrl?: string; host?: string; port?: number } = {}): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const waiters: Array<{ predicate: (d: ReceivedDelivery) => boolean; resolve: (d: ReceivedDelivery) => void }> = [];
  let failures: Array<number> = [];
  let holds: Array<number> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown = rawBody;
      try {
        body = JSON.parse(rawBody);
      } catch {
        // kept as text: the body check reports it
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v ?? '']));
      const delivery: ReceivedDelivery = { receivedAt: Date.now(), path: req.url ?? '/', headers, rawBody, body };
      received.push(delivery);
      const status = failures.shift() ?? 204;
      const hold = holds.shift() ?? 0;
      if (hold > 0) setTimeout(() => res.writeHead(status).end(), hold);
      else res.writeHead(status).end();
      for (const waiter of waiters.filter((w) => w.predicate(delivery))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(delivery);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  const url = options.publicUrl ?? `http://${address.address}:${address.port}/webhooks`;
  return {
    url,
    deliveries: () => [...received],
    waitFor(predicate, timeoutMs = 15_000) {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { predicate, resolve: (d: ReceivedDelivery) => (clearTimeout(timer), resolve(d)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching webhook delivery within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    failNext(count, status = 503) {
      failures = Array.from({ length: count }, () => status);
    },
    holdNext(count, ms) {
      holds = Array.from({ length: count }, () => ms);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
