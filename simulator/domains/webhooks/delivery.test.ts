// Deliveries against a real local receiver (spec 6): headers, body, signature, retries, timeout, SSRF at
// delivery time, pinning and event subscriptions.
import { afterEach, describe, expect, it } from 'vitest';
import { isObject, loadContract } from '../../../contracts/lib/bundle.js';
import { deref } from '../../../contracts/lib/operations.js';
import { createContractSchemas } from '../../../contracts/lib/schemas.js';
import type { KernelDeps } from '../../kernel/deps.js';
import type { ResolvedAddress } from './transport.js';
import { createWebhooks, type WebhooksOptions } from './index.js';
import { finishedJob, frozenDeps, sleep, startReceiver, T0, verifySignature, waitFor, type Receiver, type Reply } from './webhook.testing.js';

const doc = loadContract('v1.3.0');
const schemas = createContractSchemas(doc);
const validateDelivery = schemas.component('WebhookDelivery');
const JOB = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const SECRET = 'whsec_0123456789abcdef';

let receiver: Receiver;
let deps: KernelDeps;
let cleanup: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(reply: Reply, options: WebhooksOptions & { allow?: (r: Receiver) => string[] } = {}) {
  receiver = await startReceiver(reply);
  deps = await frozenDeps({ config: { webhookAllowTargets: options.allow ? options.allow(receiver) : [receiver.target] } });
  const webhooks = createWebhooks(deps, options);
  await webhooks.start?.();
  cleanup.push(() => receiver.close(), async () => webhooks.stop?.(), () => deps.scheduler.stop());
  return webhooks;
}

/** Checks the request headers against the contract's parameters of the webhook operation. */
function headerProblems(event: 'job.completed' | 'job.failed', headers: Record<string, unknown>): string[] {
  const operation = (doc as unknown as { webhooks: Record<string, { post: { parameters: unknown[] } }> }).webhooks[event].post;
  const problems: string[] = [];
  for (const raw of operation.parameters) {
    const param = deref(doc, raw as never) as { name: string; required?: boolean; schema: never };
    const value = headers[param.name.toLowerCase()];
    if (value === undefined) {
      if (param.required) problems.push(`missing ${param.name}`);
      continue;
    }
    if (!schemas.validator(param.schema)(value)) problems.push(`${param.name}=${String(value)} does not match the contract`);
  }
  return problems;
}

describe('webhook deliveries', () => {
  it('delivers job.completed with every X-SVC header and a body valid against the WebhookDelivery schema', async () => {
    const webhooks = await setup(() => 204);
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: `${receiver.url}/hooks?source=sandbox`, webhookSecret: SECRET })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(async () => (await webhooks.deliveries())[0]?.status === 'delivered', 'the delivery');

    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks?source=sandbox');
    expect(request.headers['content-type']).toBe('application/json');
    expect(headerProblems('job.completed', request.headers)).toEqual([]);
    const body = JSON.parse(request.rawBody);
    expect(validateDelivery(body), JSON.stringify(validateDelivery.errors)).toBe(true);
    expect(request.headers['x-svc-event']).toBe('job.completed');
    expect(request.headers['x-svc-timestamp']).toBe(String(Math.floor(T0 / 1000)));
    expect(request.headers['x-svc-attempt']).toBe('1');
    expect(request.headers['x-svc-delivery-id']).toBe(body.id);
    expect(body).toEqual({ id: body.id, event: 'job.completed', createdAt: new Date(T0).toISOString(), job: finishedJob({ id: JOB }).job });

    const [delivery] = await webhooks.deliveries({ jobId: JOB });
    expect(delivery).toMatchObject({ id: body.id, tenantId: 'tenant-1', jobId: JOB, event: 'job.completed', status: 'delivered', nextAttemptAt: null });
    expect(delivery.attempts).toEqual([{ number: 1, at: new Date(T0).toISOString(), statusCode: 204, error: null, durationMs: expect.any(Number), signature: request.headers['x-svc-signature'] }]);
    expect(delivery.attempts[0].signature).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(await webhooks.deliveries({ tenantId: 'other-tenant' })).toEqual([]);
  });

  it('signs "<timestamp>.<raw body>" so an independent HMAC check verifies it, and a tampered body does not', async () => {
    const webhooks = await setup(() => 200);
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhook: { url: receiver.url, secret: SECRET } })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1', status: 'FAILED' }));
    await waitFor(() => receiver.requests.length === 1, 'the delivery');

    const [{ headers, rawBody }] = receiver.requests;
    expect(headers['x-svc-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifySignature(SECRET, headers, rawBody)).toBe(true);
    expect(verifySignature('another-secret', headers, rawBody)).toBe(false);
    expect(verifySignature(SECRET, headers, rawBody.replace('FAILED', 'COMPLETED'))).toBe(false);
    expect(verifySignature(SECRET, { ...headers, 'x-svc-timestamp': String(Number(headers['x-svc-timestamp']) + 1) }, rawBody)).toBe(false);
    expect(JSON.parse(rawBody)).toMatchObject({ event: 'job.failed', job: { status: 'FAILED', error: 'row 14: column hsCode is not a valid HS code', result: null } });
  });

  it('sends no X-SVC-Signature header when no secret is configured', async () => {
    const webhooks = await setup(() => 200);
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: receiver.url })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(() => receiver.requests.length === 1, 'the delivery');
    expect(receiver.requests[0].headers['x-svc-signature']).toBeUndefined();
  });

  it('retries a failing receiver exactly 30 s, 2 min and 10 min after each failure, then marks the delivery failed', async () => {
    const webhooks = await setup(() => 500);
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: receiver.url, webhookSecret: SECRET })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    const attemptsRecorded = (n: number) => async () => (await webhooks.deliveries())[0]?.attempts.length === n;
    await waitFor(attemptsRecorded(1), 'attempt 1');

    for (const [attempt, gap] of [[2, 30_000], [3, 120_000], [4, 600_000]] as const) {
      deps.clock.advance(gap - 1);
      await sleep(60);
      expect(receiver.requests, `attempt ${attempt} must wait the full gap`).toHaveLength(attempt - 1);
      deps.clock.advance(1);
      await waitFor(attemptsRecorded(attempt), `attempt ${attempt}`);
    }
    const [delivery] = await webhooks.deliveries();
    expect(delivery.status).toBe('failed');
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.attempts.map((a) => [a.number, a.statusCode, a.error])).toEqual([1, 2, 3, 4].map((n) => [n, 500, 'unexpected status 500']));

    const requests = receiver.requests;
    expect(requests.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(new Set(requests.map((r) => r.headers['x-svc-delivery-id']))).toEqual(new Set([delivery.id]));
    expect(new Set(requests.map((r) => r.rawBody)).size).toBe(1);
    const seconds = requests.map((r) => Number(r.headers['x-svc-timestamp']));
    expect(seconds.slice(1).map((s, i) => s - seconds[i])).toEqual([30, 120, 600]);
    expect(requests.every((r) => verifySignature(SECRET, r.headers, r.rawBody))).toBe(true);

    deps.clock.advance(24 * 3600_000);
    await sleep(60);
    expect(receiver.requests).toHaveLength(4);
  });

  it('counts an attempt that outlasts the timeout as a failure and schedules the retry', async () => {
    const webhooks = await setup((index) => (index === 0 ? 'hang' : 200), { timeoutMs: 150 });
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: receiver.url })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(async () => (await webhooks.deliveries())[0]?.attempts.length === 1, 'the timed-out attempt');

    const [delivery] = await webhooks.deliveries();
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({ number: 1, statusCode: null, error: 'timed out after 150 ms' });
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(140);
    expect(delivery.nextAttemptAt).toBe(new Date(T0 + 30_000).toISOString());
    deps.clock.advance(30_000);
    await waitFor(async () => (await webhooks.deliveries())[0].status === 'delivered', 'the retry');
  });
});

describe('SSRF protection at delivery', () => {
  it('refuses a hostname whose resolution is 10.1.2.3 without connecting, and keeps the retry schedule', async () => {
    const asked: string[] = [];
    const resolve = async (host: string): Promise<ResolvedAddress[]> => (asked.push(host), [{ address: '10.1.2.3', family: 4 }]);
    const webhooks = await setup(() => 200, { resolve });
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: 'https://hooks.example.com/in', webhookSecret: SECRET })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(async () => (await webhooks.deliveries())[0]?.attempts.length === 1, 'the refused attempt');

    const [delivery] = await webhooks.deliveries();
    expect(asked).toEqual(['hooks.example.com']);
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/10\.1\.2\.3.*10\.0\.0\.0\/8/) });
    expect(delivery).toMatchObject({ status: 'pending', nextAttemptAt: new Date(T0 + 30_000).toISOString() });
  });

  it('refuses when any one resolved address is blocked, and the receiver behind it is never reached', async () => {
    const resolve = async (): Promise<ResolvedAddress[]> => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    const webhooks = await setup(() => 200, { resolve });
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: `http://receiver.test:${receiver.port}/in` })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(async () => (await webhooks.deliveries())[0]?.attempts.length === 1, 'the refused attempt');
    expect((await webhooks.deliveries())[0].attempts[0].error).toMatch(/127\.0\.0\.1 \(127\.0\.0\.0\/8\)/);
    await sleep(50);
    expect(receiver.requests).toHaveLength(0);
  });

  it('connects to the pinned address while keeping the original Host header', async () => {
    const asked: string[] = [];
    const resolve = async (host: string): Promise<ResolvedAddress[]> => (asked.push(host), [{ address: '127.0.0.1', family: 4 }]);
    // Local testing allow list by host name only; `hooks.test` exists in no DNS, so only the pin can reach it.
    const webhooks = await setup(() => 200, { resolve, allow: () => ['hooks.test'] });
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: `http://hooks.test:${receiver.port}/in`, webhookSecret: SECRET })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(async () => (await webhooks.deliveries())[0]?.status === 'delivered', 'the delivery');
    expect(asked).toEqual(['hooks.test']);
    expect(receiver.requests[0].headers.host).toBe(`hooks.test:${receiver.port}`);
  });
});

describe('event subscriptions', () => {
  it('does not deliver an event the job did not subscribe to', async () => {
    const webhooks = await setup(() => 200);
    const onlyFailures = webhooks.parseConfig({ webhookUrl: receiver.url, webhookEvents: ['job.failed'] })!;
    await webhooks.attach(JOB, 'tenant-1', onlyFailures);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1', status: 'COMPLETED' }));
    await sleep(80);
    expect(await webhooks.deliveries()).toEqual([]);
    expect(receiver.requests).toHaveLength(0);

    const failing = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
    await webhooks.attach(failing, 'tenant-1', onlyFailures);
    await webhooks.jobFinished(finishedJob({ id: failing, tenantId: 'tenant-1', status: 'FAILED' }));
    await waitFor(() => receiver.requests.length === 1, 'the job.failed delivery');
    expect(receiver.requests[0].headers['x-svc-event']).toBe('job.failed');
  });

  it('creates no delivery for a job without configuration, another tenant, or a repeated end notice', async () => {
    const webhooks = await setup(() => 200);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: receiver.url })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-2' }));
    expect(await webhooks.deliveries()).toEqual([]);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(() => receiver.requests.length === 1, 'the delivery');
    await sleep(50);
    expect(await webhooks.deliveries()).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
    expect(isObject(JSON.parse(receiver.requests[0].rawBody))).toBe(true);
  });

  it('creates one delivery when two end notices of a job arrive at once (two instances)', async () => {
    const webhooks = await setup(() => 200);
    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: receiver.url })!);
    await Promise.all([webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' })), webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }))]);
    await waitFor(() => receiver.requests.length === 1, 'the delivery');
    await sleep(50);
    expect(await webhooks.deliveries()).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
  });
});

describe('tenant clocks', () => {
  it("fires a pending retry when only its tenant's clock moves, and leaves another tenant's retry waiting", async () => {
    const failFirst: Reply = (index) => (index === 0 ? 500 : 200);
    const receiverA = await startReceiver(failFirst);
    const receiverB = await startReceiver(failFirst);
    deps = await frozenDeps({ config: { webhookAllowTargets: [receiverA.target, receiverB.target] } });
    const webhooks = createWebhooks(deps);
    await webhooks.start?.();
    cleanup.push(() => receiverA.close(), () => receiverB.close(), async () => webhooks.stop?.(), () => deps.scheduler.stop());
    const JOB_B = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
    const deliveryOf = async (tenantId: string) => (await webhooks.deliveries({ tenantId }))[0];

    await webhooks.attach(JOB, 'tenant-A', webhooks.parseConfig({ webhookUrl: receiverA.url })!);
    await webhooks.attach(JOB_B, 'tenant-B', webhooks.parseConfig({ webhookUrl: receiverB.url })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-A' }));
    await webhooks.jobFinished(finishedJob({ id: JOB_B, tenantId: 'tenant-B' }));
    for (const tenantId of ['tenant-A', 'tenant-B']) {
      await waitFor(async () => (await deliveryOf(tenantId))?.attempts.length === 1, `${tenantId}'s attempt 1`);
      expect(await deliveryOf(tenantId)).toMatchObject({ status: 'pending', nextAttemptAt: new Date(T0 + 30_000).toISOString(), attempts: [{ number: 1, statusCode: 500 }] });
    }

    deps.clocks.of('tenant-A').advance(30_000);
    await waitFor(async () => (await deliveryOf('tenant-A')).status === 'delivered', "tenant-A's retry");
    expect(receiverA.requests.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2']);
    expect(Number(receiverA.requests[1].headers['x-svc-timestamp'])).toBe(Math.floor(T0 / 1000) + 30);
    await sleep(60);
    expect(receiverB.requests.map((r) => r.headers['x-svc-attempt'])).toEqual(['1']);
    expect(await deliveryOf('tenant-B')).toMatchObject({ status: 'pending', nextAttemptAt: new Date(T0 + 30_000).toISOString(), attempts: [{ number: 1 }] });
    expect(deps.clock.now()).toBe(T0);

    // B's retry was left waiting, not lost: it fires once B's own clock reaches it.
    deps.clocks.of('tenant-B').advance(30_000);
    await waitFor(async () => (await deliveryOf('tenant-B')).status === 'delivered', "tenant-B's retry");
    expect(receiverB.requests.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2']);
    expect(receiverA.requests).toHaveLength(2);
  });
});
