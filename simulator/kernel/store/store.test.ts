import { appendFileSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './store.js';
import { describeStoreSeam } from './store-seam.testing.js';

type Job = { id: string; tenantId: string; status: string };
const tempFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'store-')), 'store.json');

describeStoreSeam('journal store', (file) => openStore({ file }), tempFile);

const all = async (c: { query: (q: { where: object }) => Promise<{ items: unknown[] }> }) => (await c.query({ where: {} })).items;
const BY_ID = { fields: {}, indexes: { all: { keys: [] } } };

describe('the journal store', () => {
  it('keeps every flushed write across a reopen, without a snapshot', async () => {
    const file = tempFile();
    const store = await openStore({ file });
    const jobs = store.collection<Job>('jobs', BY_ID);
    await jobs.put({ id: 'a', tenantId: 't1', status: 'PENDING' });
    await jobs.put({ id: 'b', tenantId: 't1', status: 'PENDING' });
    await jobs.put({ id: 'a', tenantId: 't1', status: 'COMPLETED' });
    await jobs.delete('b');
    await store.flush();
    // no close(): as after a SIGKILL, only the journal holds the writes
    const reopened = await openStore({ file });
    expect(await all(reopened.collection<Job>('jobs', BY_ID))).toEqual([{ id: 'a', tenantId: 't1', status: 'COMPLETED', rev: 2 }]);
  });

  it('writes a group commit of thousands of writes as bounded journal lines, replayed in order', async () => {
    const file = tempFile();
    const store = await openStore({ file });
    const jobs = store.collection<Job>('jobs', BY_ID);
    for (let i = 0; i < 2500; i++) void jobs.put({ id: `j${i}`, tenantId: 't', status: 'PENDING' });
    void jobs.put({ id: 'j0', tenantId: 't', status: 'COMPLETED' });
    await store.flush();
    expect(store.stats.journalWrites).toBe(1);
    const lines = readFileSync(`${file}.journal`, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    const reopened = (await openStore({ file })).collection<Job>('jobs', BY_ID);
    expect(await reopened.count()).toBe(2500);
    expect(await reopened.get('j0')).toMatchObject({ status: 'COMPLETED', rev: 2 });
  });

  // The journal text is built mutation by mutation and written as bytes (issue 15: no ~350 KB line string):
  // each line must still be exactly what JSON.stringify gives the whole line, multi-byte characters included.
  it('writes each journal line as the JSON text of its mutations, however many bytes it spans', async () => {
    const file = tempFile();
    const store = await openStore({ file });
    const items = store.collection<{ id: string; name: string; note?: string }>('items', BY_ID);
    const name = 'Chaise longue \u00e9l\u00e9gante \u2014 \u6905\u5b50 \ud83e\ude91 '.repeat(20); // ~1 KB a record: lines far over 32 KB
    for (let i = 0; i < 2100; i++) void items.put({ id: `i${i}`, name: `${name}${i}`, note: undefined });
    await store.flush();
    const lines = readFileSync(`${file}.journal`, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).m.length)).toEqual([1000, 1000, 100]);
    lines.forEach((line, i) => {
      const parsed = JSON.parse(line);
      expect(parsed.s).toBe(i + 1);
      expect(line).toBe(JSON.stringify({ s: parsed.s, m: parsed.m }));
    });
    expect(JSON.parse(lines[2]).m[99]).toEqual(['items', 'i2099', { rev: 1, id: 'i2099', name: `${name}2099` }]);
  });

  it('streams the snapshot at compaction and reopens from it', async () => {
    const file = tempFile();
    const store = await openStore({ file });
    const jobs = store.collection<Job>('jobs', BY_ID);
    for (let i = 0; i < 3000; i++) await jobs.put({ id: `j${i}`, tenantId: 't', status: i % 2 ? 'PENDING' : 'COMPLETED' });
    await jobs.delete('j1');
    await store.flush();
    await store.compact();
    await jobs.put({ id: 'after', tenantId: 't', status: 'PENDING' });
    await store.flush();
    expect(JSON.parse(readFileSync(file, 'utf8')).collections.jobs.j2).toEqual({ id: 'j2', tenantId: 't', status: 'COMPLETED', rev: 1 });
    const reopened = (await openStore({ file })).collection<Job>('jobs', BY_ID);
    expect(await reopened.count()).toBe(3000);
    expect(await reopened.get('j1')).toBeUndefined();
    expect(await reopened.get('after')).toMatchObject({ status: 'PENDING' });
  });

  it('drops a torn last journal line, which was never acknowledged', async () => {
    const file = tempFile();
    const store = await openStore({ file });
    await store.collection<Job>('jobs').put({ id: 'a', tenantId: 't', status: 'PENDING' });
    await store.flush();
    appendFileSync(`${file}.journal`, '{"s":2,"m":[["jobs","b",{"id":"b"');
    const reopened = await openStore({ file });
    expect(await reopened.collection<Job>('jobs').count()).toBe(1);
  });

  it('compacts into a snapshot and an empty journal, and loads the same state back', async () => {
    const file = tempFile();
    const store = await openStore({ file, compactAfterBytes: 2_000 });
    const jobs = store.collection<Job>('jobs');
    for (let i = 0; i < 100; i++) {
      await jobs.put({ id: `j${i}`, tenantId: 't', status: 'PENDING' });
      await store.flush();
    }
    await store.close();
    expect(statSync(file).size).toBeGreaterThan(0);
    expect(readdirSync(path.dirname(file)).filter((f) => f.endsWith('.old'))).toEqual([]);
    expect(statSync(`${file}.journal`).size).toBeLessThan(2_000);
    const reopened = await openStore({ file });
    expect(await reopened.collection<Job>('jobs').count()).toBe(100);
    expect(await reopened.collection<Job>('jobs').get('j99')).toEqual({ id: 'j99', tenantId: 't', status: 'PENDING', rev: 1 });
  });

  it('shares one journal append among concurrent flushes', async () => {
    const file = tempFile();
    const store = await openStore({ file });
    const jobs = store.collection<Job>('jobs');
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await jobs.put({ id: `j${i}`, tenantId: 't', status: 'PENDING' });
        return store.flush();
      }),
    );
    expect(store.stats.journalWrites).toBeLessThanOrEqual(2);
    expect(await (await openStore({ file })).collection('jobs').count()).toBe(50);
  });
});
