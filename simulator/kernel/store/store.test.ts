import { appendFileSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './store.js';

type Job = { id: string; tenantId: string; status: string };
const tempFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'store-')), 'store.json');

describe('the store', () => {
  it('keeps every flushed write across a reopen, without a snapshot', async () => {
    const file = tempFile();
    const store = await openStore({ file });
    const jobs = store.collection<Job>('jobs');
    jobs.put({ id: 'a', tenantId: 't1', status: 'PENDING' });
    jobs.put({ id: 'b', tenantId: 't1', status: 'PENDING' });
    jobs.put({ id: 'a', tenantId: 't1', status: 'COMPLETED' });
    jobs.delete('b');
    await store.flush();
    // no close(): as after a SIGKILL, only the journal holds the writes
    const reopened = await openStore({ file });
    expect([...reopened.collection<Job>('jobs').values()]).toEqual([{ id: 'a', tenantId: 't1', status: 'COMPLETED' }]);
  });

  it('drops a torn last journal line, which was never acknowledged', async () => {
    const file = tempFile();
    const store = await openStore({ file });
    store.collection<Job>('jobs').put({ id: 'a', tenantId: 't', status: 'PENDING' });
    await store.flush();
    appendFileSync(`${file}.journal`, '{"s":2,"m":[["jobs","b",{"id":"b"');
    const reopened = await openStore({ file });
    expect(reopened.collection<Job>('jobs').size()).toBe(1);
  });

  it('compacts into a snapshot and an empty journal, and loads the same state back', async () => {
    const file = tempFile();
    const store = await openStore({ file, compactAfterBytes: 2_000 });
    const jobs = store.collection<Job>('jobs');
    for (let i = 0; i < 100; i++) {
      jobs.put({ id: `j${i}`, tenantId: 't', status: 'PENDING' });
      await store.flush();
    }
    await store.close();
    expect(statSync(file).size).toBeGreaterThan(0);
    expect(readdirSync(path.dirname(file)).filter((f) => f.endsWith('.old'))).toEqual([]);
    expect(statSync(`${file}.journal`).size).toBeLessThan(2_000);
    const reopened = await openStore({ file });
    expect(reopened.collection<Job>('jobs').size()).toBe(100);
    expect(reopened.collection<Job>('jobs').get('j99')).toEqual({ id: 'j99', tenantId: 't', status: 'PENDING' });
  });

  it('answers index look-ups and keeps them current on replace and delete', async () => {
    const store = await openStore();
    const jobs = store.collection<Job>('jobs', { indexes: { inFlight: (j) => (j.status === 'PENDING' ? j.tenantId : undefined) } });
    jobs.put({ id: 'a', tenantId: 't1', status: 'PENDING' });
    jobs.put({ id: 'b', tenantId: 't1', status: 'PENDING' });
    jobs.put({ id: 'c', tenantId: 't2', status: 'PENDING' });
    jobs.put({ id: 'a', tenantId: 't1', status: 'COMPLETED' });
    jobs.delete('c');
    expect(jobs.countBy('inFlight', 't1')).toBe(1);
    expect(jobs.findBy('inFlight', 't1').map((j) => j.id)).toEqual(['b']);
    expect(jobs.countBy('inFlight', 't2')).toBe(0);
  });

  it('freezes stored records so a change must go through put', async () => {
    const store = await openStore();
    const stored = store.collection<Job>('jobs').put({ id: 'a', tenantId: 't', status: 'PENDING' });
    expect(() => ((stored as Job).status = 'FAILED')).toThrow(TypeError);
  });

  it('shares one journal append among concurrent flushes', async () => {
    const file = tempFile();
    const store = await openStore({ file });
    const jobs = store.collection<Job>('jobs');
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        jobs.put({ id: `j${i}`, tenantId: 't', status: 'PENDING' });
        return store.flush();
      }),
    );
    expect(store.stats.journalWrites).toBeLessThanOrEqual(2);
    expect((await openStore({ file })).collection('jobs').size()).toBe(50);
  });
});
