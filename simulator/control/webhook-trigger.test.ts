// The sandbox-defined webhook tools of the control API (issue 29 item 7; `tfas trigger`, `tfas resend`):
// POST /_sim/webhooks/trigger sends a sample event for a job with a webhook and POST
// /_sim/webhooks/deliveries/{id}/redeliver a past delivery again, each a new delivery made and sent by the
// webhooks domain as a real one (spec 6: body, headers, signature, retries), seen here by a real receiver.
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_FAILURE } from '../domains/jobs/job.response.js';
import { verifySignature } from '../domains/webhooks/webhook.testing.js';
import type { TestSandbox } from '../testing/contract-client.js';
import { enqueue, sandboxWith, storedStatus, waitFor, webhookReceiver, type Received } from './defects.testing.js';

const SECRET = 'trigger-test-secret';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let sandbox: TestSandbox | undefined;
let receiver: Awaited<ReturnType<typeof webhookReceiver>> | undefined;
afterEach(async () => {
  await sandbox?.close();
  await receiver?.close();
  sandbox = receiver = undefined;
});

/** A sandbox allowing a local receiver answering `status`, and a job of its default tenant with a webhook there. */
async function jobWithWebhook(status = 204, defects: string[] = []) {
  receiver = await webhookReceiver(status);
  sandbox = await sandboxWith(defects, { webhookAllowTargets: [receiver.target] });
  const queued = await enqueue(sandbox, { skus: ['UDS-CHAIR-01'], webhook: { url: receiver.url, secret: SECRET } });
  expect(queued.status, queued.text).toBe(202);
  return { s: sandbox, r: receiver, jobId: queued.body.jobId as string };
}

/** Moves the tenant's clock until the job is COMPLETED. */
async function complete(s: TestSandbox, jobId: string) {
  await waitFor(async () => {
    if ((await storedStatus(s, jobId)) === 'COMPLETED') return true;
    await s.admin('POST', '/_sim/clock/advance', { seconds: 60 });
    return false;
  }, `job ${jobId} COMPLETED`);
}

const deliveriesOf = async (s: TestSandbox, jobId: string) => (await s.admin('GET', `/_sim/webhooks/deliveries?jobId=${jobId}`)).body.deliveries as Array<Record<string, any>>;
const sentAs = (r: { received: Received[] }, deliveryId: string) => r.received.filter((x) => x.headers['x-svc-delivery-id'] === deliveryId);

describe('POST /_sim/webhooks/trigger', () => {
  it("sends a job.failed sample of a completed job to the job's webhook, signed with its secret under a new delivery id, and the job does not change", async () => {
    const { s, r, jobId } = await jobWithWebhook();
    await complete(s, jobId);
    await waitFor(() => r.received.length === 1, 'the job.completed delivery');
    const real = (await deliveriesOf(s, jobId))[0];

    const triggered = await s.admin('POST', '/_sim/webhooks/trigger', { jobId, event: 'job.failed' });
    expect(triggered.status, triggered.text).toBe(201);
    expect(triggered.body).toMatchObject({ jobId, tenantId: s.identity.tenantId, event: 'job.failed', url: r.url, origin: 'trigger' });
    expect(triggered.body.id).not.toBe(real.id);
    await waitFor(() => sentAs(r, triggered.body.id).length === 1, 'the sample');
    const [{ headers, body }] = sentAs(r, triggered.body.id);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-svc-event']).toBe('job.failed');
    expect(headers['x-svc-attempt']).toBe('1');
    expect(verifySignature(SECRET, headers, body)).toBe(true);
    const payload = JSON.parse(body);
    expect(Object.keys(payload).sort()).toEqual(['createdAt', 'event', 'id', 'job']);
    expect(payload).toMatchObject({ id: triggered.body.id, event: 'job.failed', job: { id: jobId, status: 'FAILED', result: null, error: SAMPLE_FAILURE } });
    expect((await s.call('GET', `/api/jobs/${jobId}`)).body.status).toBe('COMPLETED');
    await waitFor(async () => (await deliveriesOf(s, jobId)).some((d) => d.id === triggered.body.id && d.status === 'delivered'), 'the sample recorded delivered');
  });

  it('sends a job.completed sample of a completed job with the job object its real delivery carried', async () => {
    const { s, r, jobId } = await jobWithWebhook();
    await complete(s, jobId);
    await waitFor(() => r.received.length === 1, 'the job.completed delivery');
    const triggered = await s.admin('POST', '/_sim/webhooks/trigger', { jobId, event: 'job.completed', tenantId: s.identity.tenantId });
    expect(triggered.status, triggered.text).toBe(201);
    await waitFor(() => r.received.length === 2, 'the sample');
    const [first, second] = r.received.map((x) => JSON.parse(x.body));
    expect(second.job).toEqual(first.job);
    expect(second.id).not.toBe(first.id);
  });

  it("retries a sample its receiver refuses on the spec 6 schedule: attempt 2 thirty seconds after attempt 1 on the tenant's clock", async () => {
    const { s, r, jobId } = await jobWithWebhook(503);
    const triggered = await s.admin('POST', '/_sim/webhooks/trigger', { jobId, event: 'job.completed' });
    expect(triggered.status, triggered.text).toBe(201);
    const mine = async () => (await deliveriesOf(s, jobId)).find((d) => d.id === triggered.body.id)!;
    await waitFor(async () => (await mine()).attempts.length === 1, 'attempt 1');
    const afterOne = await mine();
    expect(afterOne).toMatchObject({ status: 'pending', attempts: [{ number: 1, statusCode: 503 }] });
    expect(Date.parse(afterOne.nextAttemptAt) - Date.parse(afterOne.attempts[0].at)).toBeGreaterThanOrEqual(30_000);
    expect(Date.parse(afterOne.nextAttemptAt) - Date.parse(afterOne.attempts[0].at)).toBeLessThan(31_000);
    await s.admin('POST', '/_sim/clock/advance', { seconds: 31 });
    await waitFor(() => sentAs(r, triggered.body.id).length === 2, 'attempt 2');
    expect(sentAs(r, triggered.body.id).map((x) => x.headers['x-svc-attempt'])).toEqual(['1', '2']);
  });

  it("shapes a sample with the tenant's defects as it shapes the tenant's real deliveries, in its body and its headers", async () => {
    const { s, r, jobId } = await jobWithWebhook();
    await complete(s, jobId);
    await waitFor(() => r.received.length === 1, 'the job.completed delivery');
    const job = JSON.parse(r.received[0]!.body).job;
    expect(job.updatedAt).not.toBe(job.createdAt);
    // One defect acts when the body is made (the control request), one when an attempt is sent (the dispatcher).
    await s.admin('PUT', `/_sim/tenants/${s.identity.tenantId}/faults`, { defects: ['webhooks.payload-job-updated-at-created', 'webhooks.wrong-event-header'] });
    const triggered = await s.admin('POST', '/_sim/webhooks/trigger', { jobId, event: 'job.completed' });
    await waitFor(() => sentAs(r, triggered.body.id).length === 1, 'the sample');
    const [sample] = sentAs(r, triggered.body.id);
    expect(sample!.headers['x-svc-event']).toBe('job.finished');
    expect(JSON.parse(sample!.body).job).toMatchObject({ createdAt: job.createdAt, updatedAt: job.createdAt });
  });

  it("answers 404 for a job without a webhook, another tenant's job and an unknown job, and 400 for an unknown event", async () => {
    const { s, jobId } = await jobWithWebhook();
    const plain = (await enqueue(s)).body.jobId;
    const other = (await s.admin('POST', '/_sim/tenants', {})).body.tenantId;
    for (const [body, why] of [
      [{ jobId: plain, event: 'job.completed' }, 'no webhook'],
      [{ jobId, event: 'job.completed', tenantId: other }, 'another tenant'],
      [{ jobId: UNKNOWN, event: 'job.failed' }, 'unknown job'],
    ] as const) {
      const refused = await s.admin('POST', '/_sim/webhooks/trigger', body);
      expect([refused.status, refused.body.code], why).toEqual([404, 'NOT_FOUND']);
      expect(refused.body.message, why).toContain('has a webhook');
    }
    const unknownEvent = await s.admin('POST', '/_sim/webhooks/trigger', { jobId, event: 'job.finished' });
    expect([unknownEvent.status, unknownEvent.body.code]).toEqual([400, 'INVALID_REQUEST']);
    expect((await s.admin('GET', '/_sim/webhooks/deliveries')).body.deliveries.filter((d: { origin: string }) => d.origin === 'trigger')).toEqual([]);
  });
});

describe('POST /_sim/webhooks/deliveries/{deliveryId}/redeliver', () => {
  it('sends a delivered delivery again as a new delivery: the same event and job object, a new id, signed, linked to the first', async () => {
    const { s, r, jobId } = await jobWithWebhook();
    await complete(s, jobId);
    await waitFor(async () => (await deliveriesOf(s, jobId))[0]?.status === 'delivered', 'the job.completed delivery');
    const past = (await deliveriesOf(s, jobId))[0];
    const again = await s.admin('POST', `/_sim/webhooks/deliveries/${past.id}/redeliver`);
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ jobId, event: 'job.completed', url: past.url, origin: 'redelivery', redeliveryOf: past.id, status: 'pending', attempts: [] });
    expect(again.body.id).not.toBe(past.id);
    await waitFor(() => sentAs(r, again.body.id).length === 1, 'the redelivery');
    const first = JSON.parse(sentAs(r, past.id)[0].body);
    const [{ headers, body }] = sentAs(r, again.body.id);
    expect(verifySignature(SECRET, headers, body)).toBe(true);
    expect(headers['x-svc-event']).toBe('job.completed');
    expect(JSON.parse(body)).toMatchObject({ id: again.body.id, event: 'job.completed', job: first.job });
    expect((await deliveriesOf(s, jobId)).map((d) => d.origin)).toEqual(['job', 'redelivery']);
  });

  it('answers 409 for a delivery still pending and 404 for an unknown one', async () => {
    const { s, jobId } = await jobWithWebhook(503);
    const triggered = await s.admin('POST', '/_sim/webhooks/trigger', { jobId, event: 'job.completed' });
    const pending = await s.admin('POST', `/_sim/webhooks/deliveries/${triggered.body.id}/redeliver`);
    expect([pending.status, pending.body.code, pending.body.details.currentState]).toEqual([409, 'ACTION_NOT_ALLOWED', 'pending']);
    expect((await s.admin('POST', `/_sim/webhooks/deliveries/${UNKNOWN}/redeliver`)).status).toBe(404);
    expect((await deliveriesOf(s, jobId)).filter((d) => d.origin === 'redelivery')).toEqual([]);
  });
});
