// The PostgreSQL store against a real server (Debian's packages, simulator/testing/postgres-server.ts): the
// seam's own suite, then what several instances sharing one database rely on, each "instance" a store
// with a pool of its own.
import postgres, { type Sql } from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from './collection.js';
import { openPostgresStore } from './postgres-store.js';
import { describeStoreSeam, item, ITEM_SCHEMA, type Item } from './store-seam.testing.js';
import { postgresSkipReason, startPostgres, type PostgresServer } from '../../testing/postgres-server.js';

const skipReason = postgresSkipReason();
let server: PostgresServer;
let admin: Sql;
const created = new Set<string>();
const opened: Store[] = [];
let databases = 0;

const urlOf = (database: string) => server.url.replace(/\/[^/]*$/, `/${database}`);
/** A database of its own per name: the seam's `file` is a database the test reopens. */
async function database(name: string): Promise<string> {
  if (!created.has(name)) {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
    created.add(name);
  }
  return urlOf(name);
}
const freshDatabase = () => database(`t${process.pid}_${++databases}`);
async function open(url: string, instanceId?: string): Promise<Store> {
  const store = await openPostgresStore({ url, instanceId, poolSize: 4 });
  opened.push(store);
  return store;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skipReason !== null)(`the PostgreSQL store${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  beforeAll(async () => {
    server = await startPostgres({ database: 'admin' });
    admin = postgres(server.url, { max: 1, onnotice: () => {} });
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  afterAll(async () => {
    await admin?.end({ timeout: 5 });
    await server?.stop();
  });

  describeStoreSeam('postgres store', async (file) => open(file ? await database(file) : await freshDatabase()), () => `reopen_${process.pid}_${++databases}`);

  it('offers no coordination to a database one process owns (SIM_STORE=local): its leases are all its own', async () => {
    const url = await freshDatabase();
    const owned = await openPostgresStore({ url, poolSize: 2, ownedByOneProcess: true });
    opened.push(owned);
    expect(owned.shared).toBeUndefined();
    expect((await open(url)).shared).toBeDefined();
    // It serves records all the same.
    await owned.collection('probe').put({ id: 'p1' });
    expect(await owned.collection('probe').get('p1')).toMatchObject({ id: 'p1', rev: 1 });
  });

  describe('shared by two instances on one database', () => {
    const two = async () => {
      const url = await freshDatabase();
      return [await open(url, 'a'), await open(url, 'b')] as const;
    };

    it('refuses a lease one instance holds to the other until it expires, and the first then loses it', async () => {
      const [a, b] = await two();
      const jobsA = a.shared!.leases('job', 400);
      const jobsB = b.shared!.leases('job', 400);
      expect(await jobsA.acquire('j1')).toBe(true);
      expect(await jobsB.acquire('j1')).toBe(false);
      expect(await jobsA.acquire('j1')).toBe(true);
      expect(await b.shared!.leases('delivery', 400).acquire('j1')).toBe(true);
      expect(await jobsA.renew(['j1'])).toEqual(['j1']);
      await sleep(500);
      expect(await jobsB.acquire('j1')).toBe(true);
      expect(await jobsA.renew(['j1'])).toEqual([]);
      await jobsA.release(['j1']);
      expect(await jobsA.acquire('j1')).toBe(false);
      await jobsB.release(['j1']);
      expect(await jobsA.acquire('j1')).toBe(true);
    });

    it('gives many leases up in one statement, leaving those another instance holds', async () => {
      const [a, b] = await two();
      const jobsA = a.shared!.leases('job', 60_000);
      const jobsB = b.shared!.leases('job', 60_000);
      const ids = Array.from({ length: 2000 }, (_, n) => `j${n}`);
      await Promise.all(ids.map((id) => jobsA.acquire(id)));
      expect(await jobsB.acquire('theirs')).toBe(true);
      await jobsA.release([...ids, 'theirs']);
      expect(await jobsA.acquire('theirs')).toBe(false);
      const retaken = await Promise.all(ids.map((id) => jobsB.acquire(id)));
      expect(retaken.every(Boolean)).toBe(true);
      await jobsA.release([]);
    });

    it('hands leases over to the next taker at once, though their holder still beats', async () => {
      const [a, b] = await two();
      const jobsA = a.shared!.leases('job', 60_000);
      const jobsB = b.shared!.leases('job', 60_000);
      for (const id of ['j1', 'j2', 'j3']) expect(await jobsA.acquire(id)).toBe(true);
      expect(await jobsB.acquire('theirs')).toBe(true);
      await jobsA.handOver(['j1', 'j2', 'theirs']);
      expect((await jobsB.takeExpired(10)).sort()).toEqual(['j1', 'j2']);
      expect(await jobsA.acquire('j1')).toBe(false);
      expect(await jobsA.acquire('theirs')).toBe(false);
      expect(await jobsA.acquire('j3')).toBe(true);
    });

    it('hands the leases of an instance that stopped renewing to exactly one of several concurrent takers, oldest first', async () => {
      const url = await freshDatabase();
      const [dying, b, c, later] = [await open(url, 'dying'), await open(url, 'b'), await open(url, 'c'), await open(url, 'later')];
      const jobs = dying.shared!.leases('job', 1);
      for (let n = 1; n <= 12; n++) expect(await jobs.acquire(`j${String(n).padStart(2, '0')}`)).toBe(true);
      expect(await b.shared!.leases('job', 60_000).acquire('held')).toBe(true);
      await sleep(20);
      const takers = [b, c, b, c, b, c].map((store) => store.shared!.leases('job', 60_000));
      const taken = await Promise.all(takers.map((leases) => leases.takeExpired(5)));
      const all = taken.flat();
      // The live instance's lease is not among them: b still beats.
      expect(all.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `j${String(i + 1).padStart(2, '0')}`));
      for (const ids of taken) expect(ids.length).toBeLessThanOrEqual(5);
      expect(await takers[0].takeExpired(5)).toEqual([]);
      // Oldest first: leases taken in this order by an instance that then stopped come back in that order.
      const deliveries = later.shared!.leases('delivery', 1);
      for (const id of ['d3', 'd1', 'd2']) {
        await deliveries.acquire(id);
        await sleep(5);
      }
      await sleep(10);
      expect(await c.shared!.leases('delivery', 60_000).takeExpired(2)).toEqual(['d3', 'd1']);
    });

    it('renews every lease of an instance with one heartbeat, and keeps them from takers while it beats', async () => {
      const [a, b] = await two();
      const mine = a.shared!.leases('delivery', 300);
      const ids = Array.from({ length: 200 }, (_, i) => `d${i}`);
      for (const id of ids) expect(await mine.acquire(id)).toBe(true);
      const theirs = b.shared!.leases('delivery', 60_000);
      for (let round = 0; round < 4; round++) {
        await sleep(150);
        expect(await mine.renew(ids)).toEqual(ids);
        expect(await theirs.takeExpired(500)).toEqual([]);
      }
      await sleep(350); // a stops beating
      expect((await theirs.takeExpired(500)).length).toBe(200);
      expect(await mine.renew(ids)).toEqual([]);
    });

    it('runs exclusive sections of one key one at a time across both, other keys alongside, and frees the lock after a failure', async () => {
      const [a, b] = await two();
      let inside = 0;
      let most = 0;
      const order: string[] = [];
      const section = (label: string) => async () => {
        inside += 1;
        most = Math.max(most, inside);
        await sleep(10);
        order.push(label);
        inside -= 1;
        return label;
      };
      const runs = Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).shared!.exclusive('tenant-1', section(`s${i}`)));
      // Another key is not held up by tenant-1's queue.
      const other = a.shared!.exclusive('tenant-2', async () => order.length);
      expect(await other).toBeLessThan(12);
      expect((await Promise.all(runs)).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `s${i}`).sort());
      expect(most).toBe(1);
      await expect(a.shared!.exclusive('tenant-1', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      expect(await b.shared!.exclusive('tenant-1', async () => 'free again')).toBe('free again');
    });

    it('counts 240 hits from both instances in one window as 1..240, and a new window starts again at 1', async () => {
      const [a, b] = await two();
      const counts = await Promise.all(Array.from({ length: 240 }, (_, i) => (i % 2 ? a : b).shared!.hit('tenant-1:minute', 60_000)));
      expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 240 }, (_, i) => i + 1));
      expect(await a.shared!.hit('tenant-2:minute', 60_000)).toBe(1);
      expect(await b.shared!.hit('tenant-1:minute', 120_000)).toBe(1);
      // A lagging instance naming the past window counts in the current one.
      expect(await a.shared!.hit('tenant-1:minute', 60_000)).toBe(2);
      // A tenant's new limits: its windows start again on every instance, another tenant's do not.
      await b.shared!.clearWindows('tenant-1:');
      expect(await a.shared!.hit('tenant-1:minute', 120_000)).toBe(1);
      expect(await b.shared!.hit('tenant-2:minute', 60_000)).toBe(2);
    });

    it('lets exactly one of two concurrent updates of one record win across instances', async () => {
      const [a, b] = await two();
      const itemsA = a.collection<Item, keyof typeof ITEM_SCHEMA.fields>('items', ITEM_SCHEMA);
      const itemsB = b.collection<Item, keyof typeof ITEM_SCHEMA.fields>('items', ITEM_SCHEMA);
      for (let round = 0; round < 10; round++) {
        const read = await itemsA.put(item(round));
        const [x, y] = await Promise.all([itemsA.update({ ...read, status: 'DONE' }), itemsB.update({ ...read, status: 'LOST' })]);
        expect([x, y].filter((r) => r !== null)).toHaveLength(1);
        expect((await itemsB.get(read.id))?.status).toBe((x ?? y)!.status);
      }
      await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? itemsA : itemsB).modify('i000', (current) => ({ ...current, n: current.n + 1 }))));
      expect((await itemsA.get('i000'))?.n).toBe(10);
    });

    it('opens four instances at once on a fresh database, each migration applied once', async () => {
      const url = await freshDatabase();
      const stores = await Promise.all(['a', 'b', 'c', 'd'].map((id) => open(url, id)));
      expect(stores.every((store) => store.shared)).toBe(true);
      const check = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const rows = await check`SELECT version, count(*)::int AS n FROM sim_schema_migrations GROUP BY version`;
        expect(rows.map((r) => r.n)).toEqual(rows.map(() => 1));
        expect(rows.length).toBeGreaterThan(0);
      } finally {
        await check.end({ timeout: 5 });
      }
      // And declaring one collection from all four at once creates it once, ready on each.
      await Promise.all(stores.map((store, i) => store.collection<Item, keyof typeof ITEM_SCHEMA.fields>('items', ITEM_SCHEMA).put(item(i))));
      expect(await stores[0].collection('items', ITEM_SCHEMA).count()).toBe(4);
    });

    it('fills the column of a field declared on a collection that has records, here and on a later instance', async () => {
      const url = await freshDatabase();
      const first = await open(url, 'a');
      const plain = first.collection<Item>('items');
      for (let n = 1; n <= 5; n++) await plain.put(item(n, { status: n % 2 ? 'OPEN' : 'DONE' }));
      const indexed = first.collection<Item, keyof typeof ITEM_SCHEMA.fields>('items', ITEM_SCHEMA);
      expect((await indexed.query({ where: { tenantId: 't1', status: 'DONE' } })).items.map((i) => i.n)).toEqual([4, 2]);
      const later = (await open(url, 'b')).collection<Item, 'tenantId' | 'n'>('items', {
        fields: { tenantId: (i) => i.tenantId, n: (i) => i.n },
        indexes: { byTenantN: { keys: ['tenantId'], order: [['n', 'desc']] } },
      });
      expect((await later.query({ where: { tenantId: 't1' }, limit: 2 })).items.map((i) => i.n)).toEqual([5, 4]);
    });

    it('serves a collection the database already holds without a schema change, one it lacks after its schema lock', async () => {
      const url = await freshDatabase();
      await (await open(url, 'a')).collection<Item, keyof typeof ITEM_SCHEMA.fields>('items', ITEM_SCHEMA).put(item(1));
      // Another session holds the items table's schema lock (postgres-migrations.ts LOCK_SCHEMA): a schema
      // change would wait for it; a reopened store whose declarations the catalog holds needs none.
      const holder = postgres(url, { max: 1, onnotice: () => {} });
      const locked = await holder.reserve();
      await locked.unsafe(`SELECT pg_advisory_lock(1, hashtext('c_items'))`);
      try {
        const again = (await open(url, 'b')).collection<Item, keyof typeof ITEM_SCHEMA.fields>('items', ITEM_SCHEMA);
        expect((await again.query({ where: { tenantId: 't1' } })).items.map((i) => i.n)).toEqual([1]);
        const widened = (await open(url, 'c')).collection<Item, 'copyOfN'>('items', { fields: { copyOfN: (i) => i.n }, indexes: { byCopyOfN: { keys: [], order: [['copyOfN', 'asc']] } } });
        const waiting = widened.count();
        const outcome = await Promise.race([waiting.then(() => 'answered'), sleep(500).then(() => 'waiting')]);
        expect(outcome).toBe('waiting');
        await locked.unsafe(`SELECT pg_advisory_unlock(1, hashtext('c_items'))`);
        expect(await waiting).toBe(1);
      } finally {
        locked.release();
        await holder.end({ timeout: 5 });
      }
    });

    it('forgets every record, lease and rate window on clear, the collections staying usable', async () => {
      const [a, b] = await two();
      const items = a.collection<Item, keyof typeof ITEM_SCHEMA.fields>('items', ITEM_SCHEMA);
      await items.put(item(1));
      await b.collection<Item>('others').put(item(2));
      expect(await a.shared!.leases('job', 60_000).acquire('j1')).toBe(true);
      await a.shared!.hit('k', 0);
      await a.clear();
      expect(await b.collection<Item>('others').get('i002')).toBeUndefined();
      expect(await items.count()).toBe(0);
      expect(await b.shared!.leases('job', 60_000).acquire('j1')).toBe(true);
      expect(await b.shared!.hit('k', 0)).toBe(1);
      expect((await items.put(item(3))).rev).toBe(1);
    });
  });
});
