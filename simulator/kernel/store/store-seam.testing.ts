// The store seam's own test suite: what any implementation (the journal store today, a database later)
// must do. Call it from a test file with a factory; `open(file)` must reopen the same data for a file.
import { describe, expect, it } from 'vitest';
import { InvalidCursorError, UndeclaredQueryError, type CollectionSchema, type Condition, type Store } from './collection.js';

export interface Item {
  id: string;
  rev?: number;
  tenantId: string;
  status: 'OPEN' | 'DONE' | 'LOST';
  flagged: boolean;
  createdAt: string;
  n: number;
}

type ItemField = 'tenantId' | 'status' | 'flagged' | 'createdAt' | 'n';

export const ITEM_SCHEMA: CollectionSchema<Item, ItemField> = {
  fields: { tenantId: (i) => i.tenantId, status: (i) => i.status, flagged: (i) => i.flagged, createdAt: (i) => i.createdAt, n: (i) => i.n },
  indexes: {
    byTenant: { keys: ['tenantId'], order: [['createdAt', 'desc']] },
    byTenantStatus: { keys: ['tenantId', 'status'], order: [['createdAt', 'desc']] },
    byN: { keys: [], order: [['n', 'asc']] },
  },
};

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 12, minute)).toISOString();
export const item = (n: number, over: Partial<Item> = {}): Item => ({
  id: `i${String(n).padStart(3, '0')}`,
  tenantId: 't1',
  status: 'OPEN',
  flagged: n % 2 === 0,
  createdAt: at(n),
  n,
  ...over,
});

export function describeStoreSeam(label: string, open: (file?: string) => Promise<Store>, tempFile: () => string): void {
  const items = async (store?: Store) => (store ?? (await open())).collection<Item, ItemField>('items', ITEM_SCHEMA);

  describe(`the store seam (${label})`, () => {
    it('gets what was put, with a revision that grows on every write', async () => {
      const c = await items();
      expect((await c.put(item(1))).rev).toBe(1);
      expect((await c.put({ ...item(1), status: 'DONE' })).rev).toBe(2);
      expect(await c.get('i001')).toMatchObject({ status: 'DONE', rev: 2 });
      expect(await c.get('nope')).toBeUndefined();
    });

    it('creates only when the id is new', async () => {
      const c = await items();
      expect(await c.create(item(1))).toMatchObject({ id: 'i001', rev: 1 });
      expect(await c.create({ ...item(1), status: 'DONE' })).toBeNull();
      expect((await c.get('i001'))?.status).toBe('OPEN');
    });

    it('deletes, and a deleted record leaves every query', async () => {
      const c = await items();
      await c.put(item(1));
      await c.put(item(2));
      expect(await c.delete('i001')).toBe(true);
      expect(await c.delete('i001')).toBe(false);
      expect((await c.query({ where: { tenantId: 't1' } })).items.map((i) => i.id)).toEqual(['i002']);
      expect(await c.count({ tenantId: 't1' })).toBe(1);
    });

    it('answers equality, membership, exclusion and boolean filters with the total before paging', async () => {
      const c = await items();
      for (let n = 1; n <= 9; n++) await c.put(item(n, { status: n <= 3 ? 'OPEN' : n <= 6 ? 'DONE' : 'LOST' }));
      await c.put(item(20, { tenantId: 't2' }));
      const ids = async (q: Parameters<typeof c.query>[0]) => (await c.query(q)).items.map((i) => i.n);
      expect(await ids({ where: { tenantId: 't1', status: 'DONE' } })).toEqual([6, 5, 4]);
      expect(await ids({ where: { tenantId: 't1', status: { in: ['OPEN', 'LOST'] } } })).toEqual([9, 8, 7, 3, 2, 1]);
      expect(await ids({ where: { tenantId: 't1', status: { notIn: ['OPEN', 'LOST'] } } })).toEqual([6, 5, 4]);
      expect(await ids({ where: { tenantId: 't1', flagged: true } })).toEqual([8, 6, 4, 2]);
      const page = await c.query({ where: { tenantId: 't1', flagged: false }, limit: 2, offset: 1 });
      expect(page.items.map((i) => i.n)).toEqual([7, 5]);
      expect(page.total).toBe(5);
      expect(await c.count({ tenantId: 't1', status: 'LOST' })).toBe(3);
      expect(await c.count({ tenantId: 't2' })).toBe(1);
      expect(await c.count()).toBe(10);
    });

    /** Four records of t1, two of them created at the same time (i000 and i002): ties the id must break. */
    const putTiedRecords = async (c: Awaited<ReturnType<typeof items>>) => {
      await c.put(item(3));
      await c.put(item(1));
      await c.put(item(2));
      await c.put({ ...item(4), id: 'i000', createdAt: at(2) });
    };

    it('orders by the index order or its reverse, the id breaking ties (ascending in the index order)', async () => {
      const c = await items();
      await putTiedRecords(c);
      expect((await c.query({ where: { tenantId: 't1' } })).items.map((i) => i.id)).toEqual(['i003', 'i000', 'i002', 'i001']);
      expect((await c.query({ where: { tenantId: 't1' }, orderBy: [['createdAt', 'asc']] })).items.map((i) => i.id)).toEqual(['i001', 'i002', 'i000', 'i003']);
      expect((await c.query({ where: {}, orderBy: [['n', 'desc']], limit: 2 })).items.map((i) => i.n)).toEqual([4, 3]);
    });

    it('finds the first record in the order a query would answer it, or none', async () => {
      const c = await items();
      await putTiedRecords(c);
      for (const query of [{ where: { tenantId: 't1' } }, { where: { tenantId: 't1' }, orderBy: [['createdAt', 'asc']] as const }, { where: {}, orderBy: [['n', 'desc']] as const }, { where: { tenantId: 't1', flagged: false } }]) {
        expect((await c.first(query))?.id, JSON.stringify(query)).toBe((await c.query(query)).items[0]?.id);
      }
      expect((await c.first({ where: { tenantId: 't1' } }))?.id).toBe('i003');
      expect(await c.first({ where: { tenantId: 't2' } })).toBeUndefined();
    });

    it('pages with a cursor to the end, each record once', async () => {
      const c = await items();
      for (let n = 1; n <= 25; n++) await c.put(item(n));
      for (const where of [{ tenantId: 't1' }, { tenantId: 't1', flagged: false }] as const) {
        for (const orderBy of [undefined, [['createdAt', 'asc']] as const]) {
          const seen: number[] = [];
          let after: string | null = null;
          let pages = 0;
          do {
            const page = await c.query({ where, orderBy, limit: 4, after });
            seen.push(...page.items.map((i) => i.n));
            expect(page.total).toBe(where.flagged === false ? 13 : 25);
            after = page.nextCursor;
            pages += 1;
          } while (after && pages < 20);
          const expected = (await c.query({ where, orderBy })).items.map((i) => i.n);
          expect(seen).toEqual(expected);
          expect(new Set(seen).size).toBe(seen.length);
        }
      }
    });

    it('keeps a cursor stable while records are inserted before and after it', async () => {
      const c = await items();
      for (let n = 10; n < 30; n += 2) await c.put(item(n));
      const first = await c.query({ where: { tenantId: 't1' }, orderBy: [['createdAt', 'asc']], limit: 4 });
      expect(first.items.map((i) => i.n)).toEqual([10, 12, 14, 16]);
      // Concurrent writers: one record lands before the cursor, others after it, one page item changes.
      await Promise.all([c.put(item(11)), c.put(item(17)), c.put(item(40)), c.put({ ...item(14), status: 'DONE' })]);
      const rest: number[] = [];
      let after = first.nextCursor;
      while (after) {
        const page = await c.query({ where: { tenantId: 't1' }, orderBy: [['createdAt', 'asc']], limit: 4, after });
        rest.push(...page.items.map((i) => i.n));
        after = page.nextCursor;
      }
      expect(rest).toEqual([17, 18, 20, 22, 24, 26, 28, 40]);
    });

    it('reads a negative offset or limit as zero', async () => {
      const c = await items();
      for (let n = 1; n <= 3; n++) await c.put(item(n));
      expect((await c.query({ where: { tenantId: 't1' }, offset: -1, limit: 2 })).items.map((i) => i.n)).toEqual([3, 2]);
      expect((await c.query({ where: { tenantId: 't1', flagged: false }, offset: -5 })).items.map((i) => i.n)).toEqual([3, 1]);
      expect((await c.query({ where: { tenantId: 't1' }, limit: -1 })).items).toEqual([]);
    });

    it('refuses a cursor it did not issue', async () => {
      const c = await items();
      await c.put(item(1));
      await expect(c.query({ where: { tenantId: 't1' }, after: 'not-a-cursor' })).rejects.toBeInstanceOf(InvalidCursorError);
    });

    it('counts per value of a field, as GROUP BY does', async () => {
      const c = await items();
      for (let n = 1; n <= 6; n++) await c.put(item(n, { status: n <= 3 ? 'OPEN' : n === 4 ? 'DONE' : 'LOST' }));
      expect(await c.countGroups({ tenantId: 't1' }, 'status')).toEqual({ OPEN: 3, DONE: 1, LOST: 2 });
      expect(await c.countGroups({ tenantId: 't1', flagged: true }, 'status')).toEqual({ OPEN: 1, DONE: 1, LOST: 1 });
    });

    it('refuses a query no declared index serves, and an undeclared field', async () => {
      const c = await items();
      await expect(c.query({ where: { status: 'OPEN' } })).rejects.toBeInstanceOf(UndeclaredQueryError);
      await expect(c.query({ where: { tenantId: 't1' }, orderBy: [['n', 'asc']] })).rejects.toBeInstanceOf(UndeclaredQueryError);
      await expect(c.query({ where: { nope: 1 } as never })).rejects.toBeInstanceOf(UndeclaredQueryError);
      await expect(c.count({ tenantId: { in: ['t1'] } })).rejects.toBeInstanceOf(UndeclaredQueryError);
    });

    it('lets exactly one of two concurrent compare-and-set writes win', async () => {
      const c = await items();
      const read = await c.put(item(1));
      const [a, b] = await Promise.all([c.update({ ...read, status: 'DONE' }), c.update({ ...read, status: 'LOST' })]);
      expect([a, b].filter((r) => r !== null)).toHaveLength(1);
      expect((await c.get('i001'))?.rev).toBe(2);
      expect(await c.update({ ...read, status: 'LOST' })).toBeNull();
      expect(await c.update({ ...item(99) })).toBeNull();
    });

    it('applies every concurrent modify once, retrying lost races', async () => {
      const c = await items();
      await c.put(item(1, { n: 0 }));
      await Promise.all(Array.from({ length: 20 }, () => c.modify('i001', (current) => ({ ...current, n: current.n + 1 }))));
      expect((await c.get('i001'))?.n).toBe(20);
      expect(await c.modify('absent', (current) => current)).toBeUndefined();
      expect(await c.modify('i001', () => undefined)).toBeUndefined();
    });

    it('hands out frozen records: a change goes through a write', async () => {
      const c = await items();
      const stored = await c.put(item(1));
      expect(() => ((stored as Item).status = 'DONE')).toThrow(TypeError);
    });

    it('keeps every flushed write, revision and index across a reopen', async () => {
      const file = tempFile();
      const store = await open(file);
      const c = await items(store);
      for (let n = 1; n <= 5; n++) await c.put(item(n));
      await c.put({ ...item(2), status: 'DONE' });
      await c.delete('i005');
      await store.flush();
      // No close(): as after a crash, only what was flushed is there.
      const again = await items(await open(file));
      expect(await again.get('i002')).toMatchObject({ status: 'DONE', rev: 2 });
      expect(await again.get('i005')).toBeUndefined();
      expect((await again.query({ where: { tenantId: 't1', status: 'OPEN' } })).items.map((i) => i.n)).toEqual([4, 3, 1]);
    });

    it('orders null fields last ascending and first descending, filters them, and pages through them with a cursor', async () => {
      type Due = Item & { due: string | null };
      const c = (await open()).collection<Due, 'tenantId' | 'due'>('dues', {
        fields: { tenantId: (i) => i.tenantId, due: (i) => i.due },
        indexes: { byDue: { keys: ['tenantId'], order: [['due', 'asc']] } },
      });
      const dues = ['2026-01-03', null, '2026-01-01', null, '2026-01-02'];
      for (const [n, due] of dues.entries()) await c.put({ ...item(n), due });
      const walk = async (direction: 'asc' | 'desc') => {
        const ids: string[] = [];
        let after: string | null = null;
        do {
          const page: Awaited<ReturnType<typeof c.query>> = await c.query({ where: { tenantId: 't1' }, orderBy: [['due', direction]], limit: 2, after });
          ids.push(...page.items.map((r) => r.id));
          after = page.nextCursor;
        } while (after);
        return ids;
      };
      expect(await walk('asc')).toEqual(['i002', 'i004', 'i000', 'i001', 'i003']);
      expect(await walk('desc')).toEqual(['i003', 'i001', 'i000', 'i004', 'i002']);
      const count = async (due: Condition) => (await c.query({ where: { tenantId: 't1', due } })).total;
      expect(await count(null)).toBe(2);
      expect(await count({ in: [null, '2026-01-01'] })).toBe(3);
      expect(await count({ notIn: [null, '2026-01-01'] })).toBe(2);
      expect(await count({ notIn: ['2026-01-01'] })).toBe(4);
    });

    it('serves a field and index declared after records were written, from those records', async () => {
      const store = await open();
      const plain = store.collection<Item>('items');
      for (let n = 1; n <= 5; n++) await plain.put(item(n, { status: n % 2 ? 'OPEN' : 'DONE' }));
      const indexed = await items(store);
      expect((await indexed.query({ where: { tenantId: 't1', status: 'DONE' } })).items.map((i) => i.n)).toEqual([4, 2]);
      expect(await indexed.countGroups({ tenantId: 't1' }, 'status')).toEqual({ OPEN: 3, DONE: 2 });
    });

    it('forgets everything on clear', async () => {
      const store = await open();
      const c = await items(store);
      await c.put(item(1));
      await store.clear();
      expect(await c.get('i001')).toBeUndefined();
      expect(await c.count({ tenantId: 't1' })).toBe(0);
    });
  });
}
