// A SNAPSHOT order upload cut off in the middle of its removals (a crash: here the store failing on the
// third delete) and run again, as the worker resumes it after a restart: the result counts every order the
// job removed, its first run's removals included (issue 30 item 3: a resumed job tells the truth).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../kernel/store/collection.js';
import { createTestDeps } from '../../testing/kernel.js';
import type { JobOutcome } from '../jobs/index.js';
import { orderStore } from './agreement.store.js';
import { orderUploadProcessor } from './order-upload.processor.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'order-upload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The store as it is, but whose `shipOrders` deletes fail from the `failFrom`-th on (the process dying there). */
function failingDeletes(store: Store, failFrom: number): Store {
  let deletes = 0;
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key !== 'collection') return Reflect.get(target, key, receiver);
      return (name: string, schema?: never) => {
        const collection = target.collection(name, schema);
        if (name !== 'shipOrders') return collection;
        return new Proxy(collection, {
          get: (c, k, r) => (k === 'delete' ? (id: string) => (++deletes >= failFrom ? Promise.reject(new Error('killed')) : c.delete(id)) : Reflect.get(c, k, r)),
        });
      };
    },
  });
}

describe('a SNAPSHOT order upload run again after a crash mid-removal', () => {
  it('counts the removals of both runs, and the orders left are the file’s', async () => {
    const deps = await createTestDeps();
    const orders = orderStore(deps);
    for (let i = 1; i <= 5; i++) {
      await orders.put({ id: orders.idOf('t1', `OLD-${i}`), tenantId: 't1', orderId: `OLD-${i}`, lines: [], originCountry: null, destinationCountry: null, orderedAt: null, recipientAddressType: null, jobId: 'earlier-job', updatedAt: deps.clock.nowIso() });
    }
    const file = path.join(dir, 'orders.csv');
    writeFileSync(file, 'orderId,sku,quantity\nNEW-1,A,1\n');
    const job = { id: 'job-1', tenantId: 't1', input: { ingestMode: 'SNAPSHOT', file: { path: file, fileName: 'orders.csv', format: 'csv', size: statSync(file).size, sha256: '' } } };
    const context = { progress: async () => {} };
    const crashing = { ...deps, store: failingDeletes(deps.store, 3) };
    await expect(orderUploadProcessor(crashing, orderStore(crashing))(job as never, context)).rejects.toThrow('killed');
    expect(await orders.count('t1')).toBe(4); // NEW-1 and three old ones: two removed before the crash

    const outcome = (await orderUploadProcessor(deps, orders)(job as never, context)) as JobOutcome & { result: Record<string, unknown> };
    expect(outcome.result).toMatchObject({ ingestMode: 'SNAPSHOT', ordersCreated: 1, ordersUpdated: 0, ordersRemoved: 5, ordersTotal: 1 });
  });
});
