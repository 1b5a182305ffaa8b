// The on-disk store answers queries from committed entries and uncommitted writes together (lmdb-overlay.ts):
// whatever the timing of its commits, it must answer exactly what the journal store answers for the same
// writes. Random writes, event-loop turns (a batch sent), flushes (committed) and queries, on both stores.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Collection, Query, Store } from './collection.js';
import { openLmdbStore } from './lmdb-store.js';
import { ITEM_SCHEMA, type Item } from './store-seam.testing.js';
import { openStore } from './store.js';

type Field = 'tenantId' | 'status' | 'flagged' | 'createdAt' | 'n';
type Items = Collection<Item, Field>;

const record = fc.record({
  // Few ids: a record written again after its commit (read back from the file, then replaced) is common.
  id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
  tenantId: fc.constantFrom('t1', 't2'),
  status: fc.constantFrom('OPEN', 'DONE', 'LOST') as fc.Arbitrary<Item['status']>,
  flagged: fc.boolean(),
  // Few distinct values: ties, broken by the id, are the common case.
  createdAt: fc.constantFrom('2026-11-01', '2026-11-02', '2026-11-03'),
  n: fc.integer({ min: 0, max: 3 }),
});

const query: fc.Arbitrary<Query<Field>> = fc.record({
  where: fc.oneof(
    fc.record({ tenantId: fc.constantFrom('t1', 't2') }),
    fc.record({ tenantId: fc.constantFrom('t1', 't2'), status: fc.constantFrom('OPEN', 'DONE') }),
    fc.record({ tenantId: fc.constantFrom('t1', 't2'), flagged: fc.boolean() }),
    fc.record({ tenantId: fc.constant('t1'), status: fc.constant({ in: ['OPEN', 'LOST'] }) }),
    fc.constant({}),
  ),
  reverse: fc.boolean(),
  limit: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  offset: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
}).map(({ where, reverse, limit, offset }) => {
  const keyless = Object.keys(where).length === 0;
  const orderBy = keyless ? [['n', reverse ? 'desc' : 'asc'] as const] : reverse ? [['createdAt', 'asc'] as const] : undefined;
  return { where, orderBy, limit, offset };
});

const step = fc.oneof(
  { weight: 4, arbitrary: record.map((r) => ({ kind: 'put' as const, record: r })) },
  { weight: 1, arbitrary: fc.constantFrom('a', 'b', 'c', 'd').map((id) => ({ kind: 'delete' as const, id })) },
  { weight: 1, arbitrary: fc.constantFrom('a', 'b', 'c').map((id) => ({ kind: 'modify' as const, id })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'turn' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'flush' as const }) },
  { weight: 1, arbitrary: fc.constantFrom('a', 'b', 'c').map((id) => ({ kind: 'get' as const, id })) },
  { weight: 3, arbitrary: query.map((q) => ({ kind: 'query' as const, query: q })) },
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** Every answer a query form can give, a cursor followed to the end included. */
async function answers(items: Items, q: Query<Field>) {
  const page = await items.query(q);
  const pages = [page.items.map((i) => i.id)];
  let cursor = page.nextCursor;
  while (cursor && q.limit) {
    const next = await items.query({ where: q.where, orderBy: q.orderBy, limit: q.limit, after: cursor });
    pages.push(next.items.map((i) => i.id));
    cursor = next.nextCursor;
  }
  const first = await items.first({ where: q.where, orderBy: q.orderBy });
  const groups = 'tenantId' in q.where ? await items.countGroups(q.where, 'status') : null;
  return { total: page.total, pages, first: first?.id, count: await items.count(q.where), all: await items.count(), groups };
}

async function apply(store: Store, items: Items, s: Step) {
  switch (s.kind) {
    case 'put':
      return (await items.put(s.record))?.rev;
    case 'delete':
      return items.delete(s.id);
    case 'modify':
      return (await items.modify(s.id, (r) => ({ ...r, status: r.status === 'OPEN' ? 'DONE' : 'OPEN', n: r.n + 1 })))?.rev;
    case 'turn':
      return new Promise((resolve) => setImmediate(resolve));
    case 'flush':
      return store.flush();
    case 'get':
      return items.get(s.id);
    case 'query':
      return answers(items, s.query);
  }
}

describe('the on-disk store with writes not yet committed', () => {
  it('answers every query, count and cursor walk as the journal store does, whatever has been committed yet', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lmdb-overlay-'));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), async (steps) => {
        const disk = await openLmdbStore({ file: path.join(dir, `run${run++}.mdb`) });
        const journal = await openStore();
        const onDisk = disk.collection<Item, Field>('items', ITEM_SCHEMA);
        const inMemory = journal.collection<Item, Field>('items', ITEM_SCHEMA);
        try {
          for (const s of steps) expect(await apply(disk, onDisk, s)).toEqual(await apply(journal, inMemory, s));
        } finally {
          await disk.close();
          await journal.close();
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
