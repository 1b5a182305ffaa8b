// Defect injection, behaviour: idempotency, webhook delivery and limits defects, observable over HTTP and
// at a local webhook receiver.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestSandbox } from '../testing/contract-client.js';
import { enqueue, sandboxWith, waitFor, webhookReceiver } from './defects.testing.js';

let sandbox: TestSandbox | undefined;
let receiver: Awaited<ReturnType<typeof webhookReceiver>> | undefined;
afterEach(async () => {
  await sandbox?.close();
  await receiver?.close();
  sandbox = receiver = undefined;
});

const jobCount = async (s: TestSandbox) => (await s.call('GET', '/api/jobs')).body.count as number;
const keyed = (key: string) => ({ 'Idempotency-Key': key });

describe('defect injection: idempotency', () => {
  it('idempotency.replay-creates-job: a replay creates a second job and answers the new one', async () => {
    sandbox = await sandboxWith(['idempotency.replay-creates-job']);
    const first = await enqueue(sandbox, { skus: ['UDS-CHAIR-01'] }, keyed('batch-1'));
    const again = await enqueue(sandbox, { skus: ['UDS-CHAIR-01'] }, keyed('batch-1'));
    expect([first.status, again.status]).toEqual([202, 202]);
    expect(again.body.jobId).not.toBe(first.body.jobId);
    expect(await jobCount(sandbox)).toBe(2);
  });

  it('idempotency.conflict-ignored: the same key with another payload creates a job (202)', async () => {
    sandbox = await sandboxWith(['idempotency.conflict-ignored']);
    const first = await enqueue(sandbox, { skus: ['UDS-CHAIR-01'] }, keyed('batch-1'));
    const other = await enqueue(sandbox, { skus: ['SOMETHING-ELSE'] }, keyed('batch-1'));
    expect(other.status).toBe(202);
    expect(other.body.jobId).not.toBe(first.body.jobId);
    expect(await jobCount(sandbox)).toBe(2);
  });

  it('idempotency.replayed-flag-missing: a replay answers replayed: false (with the original job)', async () => {
    sandbox = await sandboxWith(['idempotency.replayed-flag-missing']);
    const first = await enqueue(sandbox, { skus: ['UDS-CHAIR-01'] }, keyed('batch-1'));
    const again = await enqueue(sandbox, { skus: ['UDS-CHAIR-01'] }, keyed('batch-1'));
    expect([again.status, again.body.jobId, again.body.replayed]).toEqual([202, first.body.jobId, false]);
    expect(await jobCount(sandbox)).toBe(1);
  });

  it('idempotency.concurrent-duplicates: concurrent requests with one key each create a job', async () => {
    sandbox = await sandboxWith(['idempotency.concurrent-duplicates']);
    await sandbox.token();
    const responses = await Promise.all(Array.from({ length: 5 }, () => enqueue(sandbox!, { skus: null }, keyed('burst'))));
    expect(responses.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    // Without the defect exactly one job exists (simulator/platform.test.ts); with it, requests that met in the
    // race window each made one (all five, unless the machine is slow enough to serialize some).
    const jobs = new Set(responses.map((r) => r.body.jobId)).size;
    expect(jobs).toBeGreaterThan(1);
    expect(await jobCount(sandbox)).toBe(jobs);
  });
});

/** A sandbox delivering to a local receiver; enqueues one job with this webhook configuration. */
async function deliveringTo(defects: string[], webhook: (url: string) => object, receiverStatus = 204) {
  receiver = await webhookReceiver(receiverStatus);
  sandbox = await sandboxWith(defects, { webhookAllowTargets: [receiver.target] });
  const accepted = await enqueue(sandbox, { skus: ['UDS-CHAIR-01'], ...webhook(receiver.url) });
  expect(accepted.status).toBe(202);
  return { sandbox, receiver, jobId: accepted.body.jobId as string };
}

const SECRET = 'whsec_defect_injection_secret';

describe('defect injection: webhooks', () => {
  it('webhooks.bad-signature: the signature is an HMAC of the body alone, without the timestamp', async () => {
    const { receiver } = await deliveringTo(['webhooks.bad-signature'], (url) => ({ webhook: { url, secret: SECRET } }));
    await waitFor(() => receiver.received.length > 0, 'a delivery');
    const [{ headers, body }] = receiver.received;
    const hmac = (message: string) => `v1=${createHmac('sha256', SECRET).update(message).digest('hex')}`;
    expect(headers['x-svc-signature']).toBe(hmac(body));
    expect(headers['x-svc-signature']).not.toBe(hmac(`${headers['x-svc-timestamp']}.${body}`));
  });

  it('webhooks.missing-signature: no X-SVC-Signature header although a secret is set', async () => {
    const { receiver } = await deliveringTo(['webhooks.missing-signature'], (url) => ({ webhook: { url, secret: SECRET } }));
    await waitFor(() => receiver.received.length > 0, 'a delivery');
    expect(receiver.received[0].headers['x-svc-timestamp']).toBeDefined();
    expect(receiver.received[0].headers).not.toHaveProperty('x-svc-signature');
  });

  it('webhooks.delivery-id-changes: every attempt gets a new delivery id, in the header and the body', async () => {
    const { sandbox, receiver, jobId } = await deliveringTo(['webhooks.delivery-id-changes'], (url) => ({ webhookUrl: url }), 503);
    await waitFor(async () => (await sandbox.admin('GET', `/_sim/webhooks/deliveries?jobId=${jobId}`)).body.deliveries[0]?.attempts.length === 1, 'attempt 1');
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 31 });
    await waitFor(() => receiver.received.length === 2, 'attempt 2');
    const ids = receiver.received.map(({ headers, body }) => {
      expect(headers['x-svc-delivery-id']).toBe(JSON.parse(body).id);
      return headers['x-svc-delivery-id'];
    });
    expect(receiver.received.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2']);
    expect(ids[1]).not.toBe(ids[0]);
  });

  it('webhooks.wrong-event-header: X-SVC-Event says job.finished', async () => {
    const { receiver } = await deliveringTo(['webhooks.wrong-event-header'], (url) => ({ webhookUrl: url }));
    await waitFor(() => receiver.received.length > 0, 'a delivery');
    expect(receiver.received[0].headers['x-svc-event']).toBe('job.finished');
    expect(JSON.parse(receiver.received[0].body).event).toBe('job.completed');
  });

  it('webhooks.retry-too-early: a retry comes 10 s after a failure instead of 30 s', async () => {
    const { sandbox, receiver, jobId } = await deliveringTo(['webhooks.retry-too-early'], (url) => ({ webhookUrl: url }), 503);
    const delivery = async () => (await sandbox.admin('GET', `/_sim/webhooks/deliveries?jobId=${jobId}`)).body.deliveries[0];
    await waitFor(async () => (await delivery())?.attempts.length === 1, 'attempt 1');
    const first = await delivery();
    expect(Date.parse(first.nextAttemptAt) - Date.parse(first.attempts[0].at)).toBeLessThan(11_000);
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 11 });
    await waitFor(() => receiver.received.length === 2, 'attempt 2 within 11 s');
  });

  it('webhooks.event-filter-ignored: webhookEvents is ignored and every event is sent', async () => {
    const { receiver } = await deliveringTo(['webhooks.event-filter-ignored'], (url) => ({ webhookUrl: url, webhookEvents: ['job.failed'] }));
    await waitFor(() => receiver.received.length > 0, 'an unsubscribed delivery');
    expect(JSON.parse(receiver.received[0].body).event).toBe('job.completed');
  });
});

describe('defect injection: limits', () => {
  it('limits.rate-limit-off: rate buckets never fill', async () => {
    sandbox = await sandboxWith(['limits.rate-limit-off']);
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { rateLimits: { read: { limit: 1, windowMs: 60000 } } });
    for (let i = 0; i < 5; i++) expect((await sandbox.call('GET', '/api/jobs')).status).toBe(200);
  });

  it('limits.queue-cap-off: queue-admission caps are not enforced', async () => {
    sandbox = await sandboxWith(['limits.queue-cap-off'], { jobStartDelayMs: 600_000 });
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { queueCaps: { sima: 1, total: 1 } });
    for (let i = 0; i < 3; i++) expect((await enqueue(sandbox)).status).toBe(202);
    expect(await sandbox.sim.domains.jobs.inFlightCount(sandbox.identity.tenantId)).toBe(3);
  });
});
