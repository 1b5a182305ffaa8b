import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { memoryShared } from '../testing/memory-shared.js';
import { leaseKeeper } from './lease-keeper.js';
import { openStore } from './store/store.js';

const log = pino({ level: 'silent' });
const until = async (condition: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('the lease keeper', () => {
  it('lets one instance hold a piece of work and refuses it to another while the holder renews', async () => {
    const shared = memoryShared(await openStore());
    const a = leaseKeeper(shared.instance('a'), 'job', log, { ttlMs: 100, renewMs: 10 });
    const b = leaseKeeper(shared.instance('b'), 'job', log, { ttlMs: 100, renewMs: 10 });
    expect(await a.hold('j1')).toBe(true);
    expect(await a.hold('j1')).toBe(true); // still this instance's
    expect(await b.hold('j1')).toBe(false);
    const takenByB: string[] = [];
    a.start(async () => {});
    b.start(async (id) => void takenByB.push(id));
    // Time passes well beyond the expiry, but A renews every round: B never takes it.
    for (let i = 0; i < 10; i++) {
      shared.advance(50);
      await new Promise((r) => setTimeout(r, 15));
    }
    a.stop();
    b.stop();
    expect(takenByB).toEqual([]);
  });

  it('hands the work of an instance that stopped renewing to exactly one other instance', async () => {
    const shared = memoryShared(await openStore());
    const dead = leaseKeeper(shared.instance('dead'), 'delivery', log, { ttlMs: 100, renewMs: 10 });
    await dead.hold('d1');
    await dead.hold('d2');
    const taken: Array<[string, string]> = [];
    const others = ['b', 'c'].map((name) => {
      const keeper = leaseKeeper(shared.instance(name), 'delivery', log, { ttlMs: 100, renewMs: 10 });
      keeper.start(async (id) => void taken.push([name, id]));
      return keeper;
    });
    shared.advance(101); // the dead instance never renews again
    await until(() => taken.length >= 2);
    await new Promise((r) => setTimeout(r, 50));
    for (const keeper of others) keeper.stop();
    expect(taken.map(([, id]) => id).sort()).toEqual(['d1', 'd2']);
  });

  it('gives a released lease up at once, so another instance can take the work', async () => {
    const shared = memoryShared(await openStore());
    const a = leaseKeeper(shared.instance('a'), 'job', log);
    const b = leaseKeeper(shared.instance('b'), 'job', log);
    await a.hold('j1');
    a.release('j1');
    await new Promise((r) => setTimeout(r, 0));
    expect(await b.hold('j1')).toBe(true);
  });

  it('gives every lease of a stopping instance up in one call, and only those it holds', async () => {
    const shared = memoryShared(await openStore());
    const instance = shared.instance('a');
    const calls: string[][] = [];
    const counted = {
      shared: {
        ...instance.shared!,
        leases: (kind: string, ttlMs: number) => {
          const leases = instance.shared!.leases(kind, ttlMs);
          return { ...leases, release: (ids: readonly string[]) => (calls.push([...ids]), leases.release(ids)) };
        },
      },
    };
    const a = leaseKeeper(counted, 'job', log);
    const b = leaseKeeper(shared.instance('b'), 'job', log);
    const ids = Array.from({ length: 500 }, (_, n) => `j${n}`);
    for (const id of ids) expect(await a.hold(id)).toBe(true);
    expect(await b.hold('other')).toBe(true);
    await a.release(...ids, 'other', 'never-held');
    expect(calls).toEqual([ids]);
    for (const id of ids) expect(await b.hold(id)).toBe(true);
    expect(await a.hold('other')).toBe(false);
  });

  it("hands the unfinished work of a stopping instance to another instance's next round, long before its lease expires", async () => {
    const shared = memoryShared(await openStore());
    const a = leaseKeeper(shared.instance('a'), 'job', log, { ttlMs: 60_000, renewMs: 10 });
    const b = leaseKeeper(shared.instance('b'), 'job', log, { ttlMs: 60_000, renewMs: 10 });
    for (const id of ['j1', 'j2', 'j3']) await a.hold(id);
    const taken: string[] = [];
    b.start(async (id) => void taken.push(id));
    await a.handOver('j1', 'j2');
    await until(() => taken.length === 2);
    b.stop();
    expect(taken.sort()).toEqual(['j1', 'j2']);
    expect(await a.hold('j3')).toBe(true); // still a's: it was not handed over
  });

  it('holds everything on a store one process owns', async () => {
    const keeper = leaseKeeper(await openStore(), 'job', log);
    expect(keeper.shared).toBe(false);
    expect(await keeper.hold('anything')).toBe(true);
  });
});
