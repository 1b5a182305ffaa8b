// Test support: the coordination of several instances (store/collection.ts SharedServices) in one process,
// so the code that uses it (lease keeper, cluster sync, rate buckets) is tested without a database. Each
// `instance(id)` is one instance's view: the same store and the same leases, locks and windows, with its
// own name. Lease expiry reads `now()` (wall-clock in the real store), which tests move by hand.
import { keyedSerial } from '../kernel/serial.js';
import type { Leases, SharedServices, Store } from '../kernel/store/collection.js';

export interface MemoryShared {
  /** One instance's view of the store: `store` with `shared` naming that instance. */
  instance(id: string): Store;
  /** Moves the leases' clock on. */
  advance(ms: number): void;
}

export function memoryShared(store: Store): MemoryShared {
  let now = 0;
  const leases = new Map<string, { owner: string; expiresAt: number }>();
  const windows = new Map<string, { start: number; count: number }>();
  const locks = keyedSerial();
  const servicesOf = (instanceId: string): SharedServices => ({
    instanceId,
    leases(kind, ttlMs): Leases {
      const key = (id: string) => `${kind}\u0000${id}`;
      return {
        async acquire(id) {
          const lease = leases.get(key(id));
          if (lease && lease.owner !== instanceId && lease.expiresAt >= now) return false;
          leases.set(key(id), { owner: instanceId, expiresAt: now + ttlMs });
          return true;
        },
        async renew(ids) {
          return ids.filter((id) => {
            const lease = leases.get(key(id));
            if (!lease || lease.owner !== instanceId) return false;
            lease.expiresAt = now + ttlMs;
            return true;
          });
        },
        async release(id) {
          if (leases.get(key(id))?.owner === instanceId) leases.delete(key(id));
        },
        async takeExpired(limit) {
          const taken: string[] = [];
          for (const [k, lease] of leases) {
            if (taken.length >= limit || !k.startsWith(`${kind}\u0000`) || lease.expiresAt >= now) continue;
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
  });
  return {
    instance: (id) => Object.assign(Object.create(store) as Store, { shared: servicesOf(id) }),
    advance(ms) {
      now += ms;
    },
  };
}
