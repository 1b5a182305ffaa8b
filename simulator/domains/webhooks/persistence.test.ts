// Deliveries survive a restart (pending ones resume on start()), and webhook secrets are never on disk in
// clear (spec 6: "stored encrypted at rest").
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KernelDeps } from '../../kernel/deps.js';
import type { WebhooksDomain } from './webhooks.types.js';
import { createWebhooks } from './index.js';
import { finishedJob, frozenDeps, sleep, startReceiver, verifySignature, waitFor, type Receiver } from './webhook.testing.js';

const JOB = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const SECRET = 'whsec_do-not-store-me-in-clear-7f3a';

let dir: string;
let receiver: Receiver;
const running: Array<{ deps: KernelDeps; webhooks: WebhooksDomain }> = [];

afterEach(async () => {
  for (const { deps, webhooks } of running.splice(0)) await shutDown(deps, webhooks);
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function boot(): Promise<{ deps: KernelDeps; webhooks: WebhooksDomain }> {
  const deps = await frozenDeps({ file: path.join(dir, 'store.json'), config: { webhookAllowTargets: [receiver.target] } });
  const webhooks = createWebhooks(deps);
  await webhooks.start?.();
  const instance = { deps, webhooks };
  running.push(instance);
  return instance;
}

/** The process ends: in-flight work is cut off, the store is closed. */
async function shutDown(deps: KernelDeps, webhooks: WebhooksDomain) {
  const index = running.findIndex((r) => r.deps === deps);
  if (index >= 0) running.splice(index, 1);
  await webhooks.stop?.();
  deps.scheduler.stop();
  await deps.store.close();
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(root, entry.name)) : [path.join(root, entry.name)],
  );
}

describe('webhook persistence', () => {
  it('resumes a pending delivery after a restart, with the next attempt number, the same id and body', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'webhooks-restart-'));
    receiver = await startReceiver((index) => (index === 0 ? 500 : 200));
    const first = await boot();
    await first.webhooks.attach(JOB, 'tenant-1', first.webhooks.parseConfig({ webhookUrl: receiver.url, webhookSecret: SECRET })!);
    await first.webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(async () => (await first.webhooks.deliveries())[0]?.attempts.length === 1, 'attempt 1');
    await shutDown(first.deps, first.webhooks);

    const second = await boot();
    const [pending] = await second.webhooks.deliveries();
    expect(pending).toMatchObject({ status: 'pending', attempts: [{ number: 1, statusCode: 500 }] });
    await sleep(60);
    expect(receiver.requests).toHaveLength(1);
    second.deps.clock.advance(30_000);
    await waitFor(async () => (await second.webhooks.deliveries())[0].status === 'delivered', 'the resumed attempt');

    const [one, two] = receiver.requests;
    expect(two.headers['x-svc-attempt']).toBe('2');
    expect(two.headers['x-svc-delivery-id']).toBe(one.headers['x-svc-delivery-id']);
    expect(two.rawBody).toBe(one.rawBody);
    // The encryption key is persisted with the store: the secret still signs after the restart.
    expect(verifySignature(SECRET, two.headers, two.rawBody)).toBe(true);
  });

  it('retries an attempt cut off by a shutdown as the same attempt number', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'webhooks-cutoff-'));
    receiver = await startReceiver((index) => (index === 0 ? 'hang' : 202));
    const first = await boot();
    await first.webhooks.attach(JOB, 'tenant-1', first.webhooks.parseConfig({ webhookUrl: receiver.url })!);
    await first.webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(() => receiver.requests.length === 1, 'attempt 1 on the wire');
    await shutDown(first.deps, first.webhooks);

    const second = await boot();
    await waitFor(async () => (await second.webhooks.deliveries())[0]?.status === 'delivered', 'the retried attempt');
    expect(receiver.requests.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '1']);
    expect((await second.webhooks.deliveries())[0].attempts).toEqual([expect.objectContaining({ number: 1, statusCode: 202, error: null })]);
  });

  it('never writes the webhook secret in clear to the store files', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'webhooks-secret-'));
    receiver = await startReceiver(() => 200);
    const { deps, webhooks } = await boot();
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: receiver.url, webhookSecret: SECRET })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(async () => (await webhooks.deliveries())[0]?.status === 'delivered', 'the delivery');
    expect(verifySignature(SECRET, receiver.requests[0].headers, receiver.requests[0].rawBody)).toBe(true);

    const stored = await deps.store.collection<{ id: string; secret: unknown }>('webhookConfigs').get(JOB);
    expect(stored?.secret).toEqual({ alg: 'A256GCM', iv: expect.any(String), tag: expect.any(String), data: expect.any(String) });
    await deps.store.compact();
    await shutDown(deps, webhooks);

    const files = filesUnder(dir);
    const onDisk = files.map((file) => readFileSync(file, 'utf8')).join('\n');
    expect(onDisk).toContain('webhookConfigs');
    expect(onDisk).toContain(JOB);
    for (const form of [SECRET, Buffer.from(SECRET).toString('base64'), Buffer.from(SECRET).toString('hex')]) {
      expect(onDisk).not.toContain(form);
    }
  });
});
