// What several simulator instances on one PostgreSQL database coordinate through it (SharedServices in
// collection.ts): leases of work items, exclusive sections, fixed rate windows. Each is one statement (or a
// lock held on one session), so it holds whichever instance asks, and dies with a dead instance.
import type { Sql } from 'postgres';
import type { Leases, SharedServices } from './collection.js';
import { LOCK_EXCLUSIVE } from './postgres-migrations.js';

/** The lease's expiry, `ttl` (parameter $n, milliseconds) from the database's clock: one clock for all instances. */
const expiry = (n: number) => `now() + $${n}::double precision * interval '1 millisecond'`;

export function postgresLeases(sql: Sql, owner: string, kind: string, ttlMs: number): Leases {
  return {
    async acquire(id) {
      // Free, expired, or already ours: the conflict branch writes only then, and RETURNING says whether it did.
      const rows = await sql.unsafe(
        `INSERT INTO sim_leases ("kind", "id", "owner", "expires_at") VALUES ($1, $2, $3, ${expiry(4)})` +
          ` ON CONFLICT ("kind", "id") DO UPDATE SET "owner" = EXCLUDED."owner", "expires_at" = EXCLUDED."expires_at"` +
          ` WHERE sim_leases."owner" = EXCLUDED."owner" OR sim_leases."expires_at" <= now() RETURNING 1`,
        [kind, id, owner, ttlMs],
        { prepare: true },
      );
      return rows.length === 1;
    },
    async renew(ids) {
      if (ids.length === 0) return [];
      const rows = await sql.unsafe<Array<{ id: string }>>(
        `UPDATE sim_leases SET "expires_at" = ${expiry(3)} WHERE "kind" = $1 AND "owner" = $2 AND "id" IN (SELECT jsonb_array_elements_text($4::text::jsonb))` + ' RETURNING "id"',
        [kind, owner, ttlMs, JSON.stringify(ids)],
        { prepare: true },
      );
      const held = new Set(rows.map((r) => r.id));
      return ids.filter((id) => held.has(id));
    },
    async release(id) {
      await sql.unsafe('DELETE FROM sim_leases WHERE "kind" = $1 AND "id" = $2 AND "owner" = $3', [kind, id, owner], { prepare: true });
    },
    async takeExpired(limit) {
      if (limit <= 0) return [];
      // SKIP LOCKED: concurrent takers lock different rows, and a taker that waited re-checks the expiry of
      // a row another one just took (READ COMMITTED re-evaluates the WHERE on the new row), so each expired
      // lease goes to exactly one taker.
      const rows = await sql.unsafe<Array<{ id: string }>>(
        `WITH "expired" AS (SELECT "kind", "id", "expires_at" FROM sim_leases WHERE "kind" = $1 AND "expires_at" <= now()` +
          ` ORDER BY "expires_at", "id" LIMIT $3 FOR UPDATE SKIP LOCKED),` +
          ` "taken" AS (UPDATE sim_leases AS l SET "owner" = $2, "expires_at" = ${expiry(4)} FROM "expired" AS e WHERE l."kind" = e."kind" AND l."id" = e."id" RETURNING l."id", e."expires_at")` +
          ` SELECT "id" FROM "taken" ORDER BY "expires_at", "id"`,
        [kind, owner, limit, ttlMs],
        { prepare: true },
      );
      return rows.map((r) => r.id);
    },
  };
}

/**
 * `exclusive()` holds a session advisory lock on a connection of its own pool (`lockSql`) while the task
 * runs on the main pool: were both on one pool, tasks waiting for a lock could hold every connection the
 * lock's holder needs. In this process, callers of one key queue before asking the database, so one key
 * takes at most one lock connection (a nested exclusive() on another key needs a second one). Keys are
 * hashed to the lock's 32 bits: two keys that collide only share a lock (more waiting, never less safety).
 * Not reentrant: a task that asks for its own key again waits for itself.
 */
export function postgresShared(sql: Sql, lockSql: Sql, instanceId: string, onError: (error: unknown) => void): SharedServices {
  const queues = new Map<string, Promise<unknown>>();

  const locked = async <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const session = await lockSql.reserve();
    try {
      await session.unsafe('SELECT pg_advisory_lock($1::int, hashtext($2))', [LOCK_EXCLUSIVE, key]);
      try {
        return await task();
      } finally {
        await session.unsafe('SELECT pg_advisory_unlock($1::int, hashtext($2))', [LOCK_EXCLUSIVE, key]).catch(onError);
      }
    } finally {
      session.release();
    }
  };

  return {
    instanceId,
    leases: (kind, ttlMs) => postgresLeases(sql, instanceId, kind, ttlMs),
    exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
      const before = queues.get(key) ?? Promise.resolve();
      const result = before.then(() => locked(key, task));
      const settled = result.then(
        () => undefined,
        () => undefined,
      );
      queues.set(key, settled);
      void settled.then(() => {
        if (queues.get(key) === settled) queues.delete(key);
      });
      return result;
    },
    async hit(key, windowStartMs) {
      // A newer window resets the count; a call naming the current window, or an older one (an instance
      // whose clock lags), counts in the current window: a late call never reopens a past window.
      const [row] = await sql.unsafe<Array<{ count: number }>>(
        'INSERT INTO sim_rate_windows ("key", "start_ms", "count") VALUES ($1, $2, 1)' +
          ' ON CONFLICT ("key") DO UPDATE SET "start_ms" = GREATEST(sim_rate_windows."start_ms", EXCLUDED."start_ms"),' +
          ' "count" = CASE WHEN EXCLUDED."start_ms" > sim_rate_windows."start_ms" THEN 1 ELSE sim_rate_windows."count" + 1 END RETURNING "count"',
        [key, Math.trunc(windowStartMs)],
        { prepare: true },
      );
      return row.count;
    },
  };
}
