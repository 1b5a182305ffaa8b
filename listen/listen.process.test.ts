// `tfas listen` against a started sandbox whose webhook allow list is empty (issue 29 item 7): the receiver
// is allowed through the control API, a job's webhook arrives with its signature checked and reaches the
// handler unchanged, a delivery signed with another secret is called invalid, and the allow list is put back
// on close (a webhook to the receiver's address is refused again).
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTarget, type TestTarget } from '../conformance/testing/simulator.js';
import { startListener, type Delivery, type Listener } from './listen.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECRET = 'listen-test-secret';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let target: TestTarget;
let handler: Server;
let handlerUrl: string;
const received: Received[] = [];
let bearer: string;

beforeAll(async () => {
  // No allow list at start (the shared test environment allows 127.0.0.1): the listener must add itself.
  target = await startTestTarget({ label: 'listen-test', env: { SIM_WEBHOOK_ALLOW_TARGETS: undefined } });
  handler = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => handler.listen(0, '127.0.0.1', () => resolve()));
  handlerUrl = `http://127.0.0.1:${(handler.address() as AddressInfo).port}/hooks`;
  const token = await fetch(`${target.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': target.apiKey } });
  bearer = ((await token.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (handler ? handler.close(() => resolve()) : resolve()));
  await target?.close();
});

/** A SIMA screening upload whose job reports to `webhookUrl`, signed with `secret`. */
async function uploadWithWebhook(webhookUrl: string, secret: string) {
  const form = new FormData();
  form.set('file', new Blob([readFileSync(path.join(ROOT, 'fixtures', 'samples', 'sima-screening.xlsx'))]), 'sima-screening.xlsx');
  form.set('webhookUrl', webhookUrl);
  form.set('webhookSecret', secret);
  const res = await fetch(`${target.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` }, body: form });
  return { status: res.status, body: (await res.json()) as { jobId?: string; code?: string } };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 60_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 100))) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
  }
}

describe('the webhook listener (listen.ts) with a started sandbox', () => {
  let listener: Listener;

  it('is allowed through the control API, checks each signature and forwards the delivery unchanged', async () => {
    const before = (await target.control('GET', '/_sim/webhooks/allow-targets')).targets as string[];
    expect(before).toEqual([]);
    listener = await startListener({ baseUrl: target.url, adminToken: target.adminToken, forwardTo: handlerUrl, secret: SECRET });
    const host = new URL(listener.url).host;
    expect((await target.control('GET', '/_sim/webhooks/allow-targets')).targets).toEqual([host]);

    const upload = await uploadWithWebhook(listener.url, SECRET);
    expect(upload.status, JSON.stringify(upload.body)).toBe(202);
    const delivery = await until<Delivery>('delivery', () => listener.deliveries().find((d) => d.body.includes(upload.body.jobId!)));
    expect(delivery.signature).toEqual({ valid: true, detail: 'the signature verifies' });
    expect(delivery.forwarded).toEqual({ status: 200 });
    expect(delivery.event).toMatch(/^job\./);
    const atHandler = received.find((r) => r.body === delivery.body);
    expect(atHandler, 'the handler got the same body').toBeDefined();
    expect(atHandler!.headers['x-svc-delivery-id']).toBe(delivery.deliveryId);
    expect(atHandler!.headers['x-svc-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
  });

  it('calls a delivery signed with another secret invalid, and still forwards it', async () => {
    const upload = await uploadWithWebhook(listener.url, 'not-the-secret-the-listener-knows');
    expect(upload.status).toBe(202);
    const delivery = await until<Delivery>('delivery', () => listener.deliveries().find((d) => d.body.includes(upload.body.jobId!)));
    expect(delivery.signature).toMatchObject({ valid: false, problem: 'mismatch' });
    expect(delivery.forwarded).toEqual({ status: 200 });
  });

  it('puts the allow list back on close: a webhook to the receiver is refused again', async () => {
    await listener.close();
    expect((await target.control('GET', '/_sim/webhooks/allow-targets')).targets).toEqual([]);
    const refused = await uploadWithWebhook(listener.url, SECRET);
    expect(refused.status).toBe(400);
  });
});

describe('tfas listen (listen/cli.ts)', () => {
  it('prints each delivery with its signature verdict and the handler answer, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/tfas.js', 'listen', '--forward-to', handlerUrl, '--base-url', target.url, '--secret', SECRET], {
      cwd: ROOT,
      env: { ...process.env, SIM_ADMIN_TOKEN: target.adminToken },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await until('start', () => /webhookUrl=(http\S+)/.exec(out)?.[1], 120_000);
      const upload = await uploadWithWebhook(url, SECRET);
      expect(upload.status, JSON.stringify(upload.body)).toBe(202);
      await until('printed delivery', () => (/ job\.\S+ delivery \S+ attempt 1: signature valid; handler answered 200\n/.test(out) ? true : undefined));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(out).toMatch(/\d+ deliveries; the allow list is back as it was/);
    expect((await target.control('GET', '/_sim/webhooks/allow-targets')).targets).toEqual([]);
  });
});
