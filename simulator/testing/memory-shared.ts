// Test support: the coordination of several instances (store/collection.ts SharedServices) in one process,
// so the code that uses it (lease keeper, cluster sync, rate buckets) is tested without a database. Each
// `instance(id)` is one instance's view: the same store and the same leases, locks and windows, with its
// own name. Heartbeats read `now()` (wall-clock in the real store), which tests move by hand.
import { keyedSerial } from '../kernel/serial.js';
import type { Leases, SharedServices, Store } from '../kernel/store/collection.js';

export interface MemoryShared {
  /** One instance's view of the store: `store` with `shared` naming that instance (and `overrides`, such
   *  as a failing flush). */
  instance(id: string, overrides?: Partial<Store>): Store;
  /** Moves the leases' clock on. */
  advance(ms: number): void;
}

export function memoryShared(store: Store): MemoryShared {
  let now = 0;
  /** Leases by kind and id; each lives for its ttl, then while its owner's heartbeat does (as in the PostgreSQL store). */
  const leases = new Map<string, { owner: string; expiresAt: number }>();
  const aliveUntil = new Map<string, number>();
  const windows = new Map<string, { start: number; count: number }>();
  const locks = keyedSerial();
  const alive = (owner: string) => (aliveUntil.get(owner) ?? -Infinity) > now;
  const servicesOf = (instanceId: string): SharedServices => ({
    instanceId,
    leases(kind, ttlMs): Leases {
      const key = (id: string) => `${kind}\u0000${id}`;
      const beat = (keepLater: boolean) => aliveUntil.set(instanceId, keepLater ? Math.max(aliveUntil.get(instanceId) ?? -Infinity, now + ttlMs) : now + ttlMs);
      return {
        async acquire(id) {
          beat(true);
          const lease = leases.get(key(id));
          if (lease && lease.owner !== instanceId && (lease.expiresAt > now || alive(lease.owner))) return false;
          leases.set(key(id), { owner: instanceId, expiresAt: now + ttlMs });
          return true;
        },
        async renew(ids) {
          const wasAlive = alive(instanceId);
          beat(false);
          return wasAlive ? [...ids] : ids.filter((id) => leases.get(key(id))?.owner === instanceId);
        },
        async release(ids) {
          for (const id of ids) if (leases.get(key(id))?.owner === instanceId) leases.delete(key(id));
        },
        async handOver(ids) {
          for (const id of ids) if (leases.get(key(id))?.owner === instanceId) leases.set(key(id), { owner: '', expiresAt: -Infinity });
        },
        async takeExpired(limit) {
          beat(true);
          const taken: string[] = [];
          for (const [k, lease] of leases) {
            if (taken.length >= limit || !k.startsWith(`${kind}\u0000`) || lease.owner === instanceId || lease.expiresAt > now || alive(lease.owner)) continue;
            leases.set(k, { owner: instanceId, expiresAt: now + ttlMs });
            taken.push(k.slice(kind.length + 1));
          }
          return taken;
        },
      };
    },
    exclusive: (key, task) => locks(key, task),
    async hit(key, windowStartMs) {
      const window = windows.get(key);
      const current = window && window.start === windowStartMs ? window : { start: windowStartMs, count: 0 };
      current.count += 1;
      windows.set(key, current);
      return current.count;
    },
    async clearWindows(prefix) {
      for (const key of windows.keys()) if (key.startsWith(prefix)) windows.delete(key);
    },
  });
  return {
    instance: (id, overrides = {}) => Object.assign(Object.create(store) as Store, { shared: servicesOf(id) }, overrides),
    advance(ms) {
      now += ms;
    },
  };
}
