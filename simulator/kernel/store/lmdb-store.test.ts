import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openLmdbStore } from './lmdb-store.js';
import { describeStoreSeam } from './store-seam.testing.js';

const tempFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'lmdb-store-')), 'store.mdb');
const WRITER = fileURLToPath(new URL('./lmdb-store.writer.testing.ts', import.meta.url));

describeStoreSeam('LMDB store', (file) => openLmdbStore({ file: file ?? tempFile() }), tempFile);

/** Runs the writer on `file` for `ms`, SIGKILLs it, and answers the ids it acknowledged. */
function writeUntilKilled(file: string, ms: number, run: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, run], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (_, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') return reject(new Error(`the writer ended by itself: ${err}`));
      // A line cut by the kill was never whole: only whole lines were acknowledged.
      resolve(out.split('\n').slice(0, -1));
    });
  });
}

type Row = { id: string; rev?: number; n: number; tenantId: string };
const fields = { tenantId: (r: Row) => r.tenantId, n: (r: Row) => r.n };
const rowsOf = async (file: string, indexes: Record<string, { keys: Array<'tenantId' | 'n'>; order?: Array<readonly ['tenantId' | 'n', 'asc' | 'desc']> }>) => {
  const store = await openLmdbStore({ file });
  return { store, rows: store.collection<Row, 'tenantId' | 'n'>('rows', { fields, indexes }) };
};

describe('the LMDB store', () => {
  it('rebuilds from the records an index declared otherwise than the store holds it, or not kept up to date by a previous process', async () => {
    const file = tempFile();
    const first = await rowsOf(file, { byTenant: { keys: ['tenantId'], order: [['n', 'asc']] } });
    for (const n of [1, 2, 3]) await first.rows.put({ id: `r${n}`, n, tenantId: 't1' });
    await first.store.close();
    // Declared descending now: the stored ascending entries would answer in the wrong order.
    const second = await rowsOf(file, { byTenant: { keys: ['tenantId'], order: [['n', 'desc']] } });
    expect((await second.rows.query({ where: { tenantId: 't1' } })).items.map((r) => r.id)).toEqual(['r3', 'r2', 'r1']);
    await second.store.close();
    // A process that does not declare byTenant writes without keeping it...
    const third = await rowsOf(file, { byN: { keys: [], order: [['n', 'asc']] } });
    await third.rows.put({ id: 'r4', n: 4, tenantId: 't1' });
    await third.rows.delete('r1');
    await third.store.close();
    // ...so the next declaration of it does not trust what is stored.
    const fourth = await rowsOf(file, { byTenant: { keys: ['tenantId'], order: [['n', 'desc']] } });
    const page = await fourth.rows.query({ where: { tenantId: 't1' } });
    expect(page.items.map((r) => r.id)).toEqual(['r4', 'r3', 'r2']);
    expect(page.total).toBe(3);
    await fourth.store.close();
  });


  it('builds an index declared while writes are on their way to the disk from those writes too', async () => {
    const file = tempFile();
    const first = await rowsOf(file, { byN: { keys: [], order: [['n', 'asc']] } });
    for (let n = 0; n < 3000; n++) void first.rows.put({ id: `r${n}`, n, tenantId: n % 2 ? 't1' : 't2' });
    await new Promise((resolve) => setImmediate(resolve)); // sent to LMDB's writer, not yet committed
    void first.rows.delete('r1');
    const declared = first.store.collection<Row, 'tenantId' | 'n'>('rows', { fields, indexes: { byTenant: { keys: ['tenantId'], order: [['n', 'asc']] } } });
    const t1 = await declared.query({ where: { tenantId: 't1' }, limit: 2 });
    expect(t1.total).toBe(1499);
    expect(t1.items.map((r) => r.id)).toEqual(['r3', 'r5']);
    expect((await declared.query({ where: { tenantId: 't2' } })).total).toBe(1500);
    await first.store.close();
  });

  it('keeps every write acknowledged by flush() through SIGKILLs of the writing process, with its index and count', { timeout: 60_000 }, async () => {
    const file = tempFile();
    const acknowledged: string[] = [];
    for (const [run, ms] of [900, 1300, 1700].entries()) acknowledged.push(...(await writeUntilKilled(file, ms, `r${run}`)));
    expect(acknowledged.length).toBeGreaterThan(1000);
    const store = await openLmdbStore({ file });
    const items = store.collection<{ id: string; n: number; tenantId: string }, 'tenantId' | 'n'>('items', {
      fields: { tenantId: (i) => i.tenantId, n: (i) => i.n },
      indexes: { byTenant: { keys: ['tenantId'], order: [['n', 'asc']] } },
    });
    const missing = [];
    for (const id of acknowledged) if (!(await items.get(id))) missing.push(id);
    expect(missing).toEqual([]);
    // The index and its count hold every record the store holds (acknowledged or written just before the kill).
    const page = await items.query({ where: { tenantId: 't1' } });
    expect(page.total).toBe(page.items.length);
    expect(page.total).toBe(await items.count());
    expect(page.total).toBeGreaterThanOrEqual(acknowledged.length);
    await store.close();
  });
});
