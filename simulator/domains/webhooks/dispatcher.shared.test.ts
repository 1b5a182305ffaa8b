// The webhook dispatcher over a store several instances share (issue 17), with the in-process fake of the
// shared services: an attempt that crashes on a store error leaves its delivery to the lease round.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryShared } from '../../testing/memory-shared.js';
import { createWebhooks } from './index.js';
import { finishedJob, frozenDeps, startReceiver, waitFor, type Receiver } from './webhook.testing.js';

const JOB = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('the webhook dispatcher over a shared store', () => {
  it('hands a delivery whose attempt crashed on a store error back to the lease round, where any instance takes it', async () => {
    let brokenFlush = false;
    // The receiver answers 503 (the delivery stays pending) and breaks the store's flush meanwhile.
    const receiver: Receiver = await startReceiver(() => ((brokenFlush = true), 503));
    const base = await frozenDeps({ config: { webhookAllowTargets: [receiver.target] } });
    const shared = memoryShared(base.store);
    const store = shared.instance('a', { flush: () => (brokenFlush ? Promise.reject(new Error('disk gone')) : base.store.flush()) });
    const webhooks = createWebhooks({ ...base, store });
    await webhooks.start?.();
    cleanup.push(() => receiver.close(), async () => webhooks.stop?.(), () => base.scheduler.stop());
    const other = shared.instance('b').shared!.leases('delivery', 15_000);

    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: `${receiver.url}/hooks` })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    const [delivery] = await webhooks.deliveries();
    let taken: string[] = [];
    await waitFor(async () => (taken = await other.takeExpired(10)).length > 0, 'the lease to be handed over');
    expect(taken).toEqual([delivery!.id]);
    expect(receiver.requests).toHaveLength(1);
    expect((await webhooks.deliveries())[0]).toMatchObject({ status: 'pending', attempts: [{ number: 1, statusCode: 503 }] });
  });

  it('hands a delivery whose attempt a stop interrupted over unrecorded, so the taker sends the same attempt number', async () => {
    const receiver: Receiver = await startReceiver(() => 'hang');
    const base = await frozenDeps({ config: { webhookAllowTargets: [receiver.target] } });
    const shared = memoryShared(base.store);
    const webhooks = createWebhooks({ ...base, store: shared.instance('a') });
    await webhooks.start?.();
    cleanup.push(() => receiver.close(), () => base.scheduler.stop());
    const other = shared.instance('b').shared!.leases('delivery', 15_000);

    await webhooks.attach(JOB, 'tenant-1', webhooks.parseConfig({ webhookUrl: `${receiver.url}/hooks` })!);
    await webhooks.jobFinished(finishedJob({ id: JOB, tenantId: 'tenant-1' }));
    await waitFor(() => receiver.requests.length === 1, 'the attempt to reach the receiver');
    await webhooks.stop?.();
    const [delivery] = await webhooks.deliveries();
    expect(delivery).toMatchObject({ status: 'pending', attempts: [] });
    expect(await other.takeExpired(10)).toEqual([delivery!.id]);
  });
});
