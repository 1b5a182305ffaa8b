// `tfas listen` (issue 29 item 7): webhooks to a local handler without an operator. A receiver on this
// machine that the sandbox is allowed to deliver to (its host:port added to the webhook allow list through
// the control API, the previous list put back on close), which prints each delivery as it arrives with the
// verdict of its signature (spec 6, "Signature": conformance/harness/signature.ts) and forwards it, body and
// X-SVC-* headers unchanged, to the client's handler. The sandbox gets the handler's status back, so its
// retries (spec 6) happen as they would against the handler itself.
import { buffer } from 'node:stream/consumers';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature, type SignatureVerdict } from '../conformance/harness/signature.js';
import { controlCall } from './control-api.js';

export interface Delivery {
  at: string;
  /** The path the sandbox posted to (the webhookUrl's path). */
  path: string;
  event?: string;
  deliveryId?: string;
  attempt?: string;
  /** The body as received (what the signature covers). */
  body: string;
  /** Absent without a secret to check against. */
  signature?: SignatureVerdict;
  /** The handler's answer, or why it could not be reached. */
  forwarded: { status: number } | { error: string };
}

export interface ListenerOptions {
  /** The sandbox (its /_sim control API is at this root). */
  baseUrl: string;
  adminToken: string;
  /** The client's webhook handler every delivery is forwarded to. */
  forwardTo: string;
  /** The webhookSecret the client sends with its requests: each signature is checked against it. */
  secret?: string;
  port?: number;
  host?: string;
  onDelivery?: (delivery: Delivery) => void;
}

export interface Listener {
  server: Server;
  /** The webhookUrl to give the sandbox. */
  url: string;
  deliveries(): Delivery[];
  /** Stops receiving and puts the sandbox's previous allow list back. */
  close(): Promise<void>;
}

/** The X-SVC-* and content headers a delivery carries to the handler (hop-by-hop and host are not its own). */
const FORWARDED = /^(x-svc-|content-type$|user-agent$)/i;

const control = <T>(options: ListenerOptions, method: string, path: string, body?: unknown) => controlCall<T>(options, method, path, body);

export async function startListener(options: ListenerOptions): Promise<Listener> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await buffer(req);
      const body = raw.toString('utf8');
      const header = (name: string) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name, value]) => FORWARDED.test(name) && typeof value === 'string')) as Record<string, string>;
      let forwarded: Delivery['forwarded'];
      try {
        const answer = await fetch(options.forwardTo, { method: 'POST', headers, body: new Uint8Array(raw), signal: AbortSignal.timeout(10_000) });
        await answer.body?.cancel();
        forwarded = { status: answer.status };
      } catch (error) {
        const cause = (error as { cause?: Error }).cause;
        forwarded = { error: cause?.message ?? (error as Error).message };
      }
      const delivery: Delivery = {
        at: new Date().toISOString(),
        path: req.url ?? '/',
        event: header('x-svc-event'),
        deliveryId: header('x-svc-delivery-id'),
        attempt: header('x-svc-attempt'),
        body,
        ...(options.secret !== undefined ? { signature: verifySignature(options.secret, header('x-svc-timestamp'), body, header('x-svc-signature')) } : {}),
        forwarded,
      };
      deliveries.push(delivery);
      options.onDelivery?.(delivery);
      // The handler's answer is the sandbox's answer: a failing handler is retried as spec 6 says.
      res.writeHead('status' in forwarded ? forwarded.status : 502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('status' in forwarded ? '' : `tfas listen could not reach ${options.forwardTo}: ${forwarded.error}`);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostPort = `${address.address}:${address.port}`;
  // The sandbox refuses loopback targets (spec 6 rule 4) unless they are on its allow list: this receiver is
  // added to the list in force, which is restored as it was on close.
  let previous: string[];
  try {
    previous = (await control<{ targets: string[] }>(options, 'GET', '/_sim/webhooks/allow-targets')).targets;
    if (!previous.includes(hostPort)) await control(options, 'PUT', '/_sim/webhooks/allow-targets', { targets: [...previous, hostPort] });
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    server,
    url: `http://${hostPort}/webhooks`,
    deliveries: () => [...deliveries],
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      const now = (await control<{ targets: string[] }>(options, 'GET', '/_sim/webhooks/allow-targets')).targets;
      // Put back what was there, keeping what others added meanwhile; only this receiver's entry goes.
      const restored = now.filter((target) => target !== hostPort || previous.includes(hostPort));
      if (restored.length !== now.length) await control(options, 'PUT', '/_sim/webhooks/allow-targets', { targets: restored });
    },
  };
}
