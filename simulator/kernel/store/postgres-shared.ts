// What several simulator instances on one PostgreSQL database coordinate through it (SharedServices in
// collection.ts): leases of work items, exclusive sections, fixed rate windows. Each is one statement (or a
// lock held on one session), so it holds whichever instance asks, and dies with a dead instance.
import type { Sql } from 'postgres';
import { keyedSerial } from '../serial.js';
import type { Leases, SharedServices } from './collection.js';
import { LOCK_EXCLUSIVE } from './postgres-migrations.js';

/** `ttl` (parameter $n, milliseconds) from the database's clock: one clock for all instances. */
const expiry = (n: number) => `now() + $${n}::double precision * interval '1 millisecond'`;

/** The heartbeat of instance $owner for $ttl ms, as a CTE (a data-modifying one runs whatever the query reads). */
const beat = (owner: number, ttl: number, keepLater: boolean) =>
  `"beat" AS (INSERT INTO sim_instances ("owner", "alive_until") VALUES ($${owner}, ${expiry(ttl)})` +
  ` ON CONFLICT ("owner") DO UPDATE SET "alive_until" = ${keepLater ? 'GREATEST(sim_instances."alive_until", EXCLUDED."alive_until")' : 'EXCLUDED."alive_until"'})`;

/**
 * SQL true when lease row `l` may be taken: its own ttl since it was taken is over, and its holder no longer
 * beats (its heartbeat is over, or it never had one). The row's own expiry matters for races: a taker whose
 * snapshot is older than the heartbeat of an instance that has just taken the row re-checks the row's new
 * version (READ COMMITTED), and only a column of the row itself is seen there as it now is.
 */
const holderGone = (l: string) =>
  `(${l}."expires_at" <= now() AND NOT EXISTS (SELECT 1 FROM sim_instances i WHERE i."owner" = ${l}."owner" AND i."alive_until" > now()))`;

// Ids are passed as one jsonb array and joined as a set: `id IN (SELECT jsonb_array_elements_text(...))`
// was planned as a nested loop over the whole array for each lease of the kind (2.6 s to release 5,000
// leases, measured), the join is index lookups (4 ms).

/**
 * A lease lives for its ttl from when it was taken (`expires_at`), and after that while its holder's
 * heartbeat does (sim_instances): taking one beats for this instance, renew() is one heartbeat whatever the
 * number of leases held, and an instance that stops beating (killed, frozen) loses its leases to whoever
 * takes them. `expires_at` is also the order takeExpired hands them out in.
 */
function postgresLeases(sql: Sql, owner: string, kind: string, ttlMs: number): Leases {
  return {
    async acquire(id) {
      // Free, its holder gone, or already ours: the conflict branch writes only then, and RETURNING says so.
      const rows = await sql.unsafe(
        `WITH ${beat(3, 4, true)} INSERT INTO sim_leases ("kind", "id", "owner", "expires_at") VALUES ($1, $2, $3, ${expiry(4)})` +
          ` ON CONFLICT ("kind", "id") DO UPDATE SET "owner" = EXCLUDED."owner", "expires_at" = EXCLUDED."expires_at"` +
          ` WHERE sim_leases."owner" = EXCLUDED."owner" OR ${holderGone('sim_leases')} RETURNING 1`,
        [kind, id, owner, ttlMs],
        { prepare: true },
      );
      return rows.length === 1;
    },
    async renew(ids) {
      // The heartbeat, and whether this instance was still alive when it beat: then nobody could take its
      // leases, and every id is still held. Otherwise (it stalled past its ttl) the table says which are.
      const [row] = await sql.unsafe<Array<{ alive: boolean | null }>>(
        `WITH "before" AS (SELECT "alive_until" FROM sim_instances WHERE "owner" = $1), ${beat(1, 2, false)}` +
          ' SELECT (SELECT "alive_until" > now() FROM "before") AS "alive"',
        [owner, ttlMs],
        { prepare: true },
      );
      if (ids.length === 0 || row.alive === true) return [...ids];
      const rows = await sql.unsafe<Array<{ id: string }>>(
        `SELECT l."id" FROM sim_leases l JOIN jsonb_array_elements_text($3::text::jsonb) AS u("id") ON l."id" = u."id" WHERE l."kind" = $1 AND l."owner" = $2`,
        [kind, owner, JSON.stringify(ids)],
        { prepare: true },
      );
      const held = new Set(rows.map((r) => r.id));
      return ids.filter((id) => held.has(id));
    },
    async release(ids) {
      if (ids.length === 0) return;
      await sql.unsafe(
        `DELETE FROM sim_leases l USING jsonb_array_elements_text($3::text::jsonb) AS u("id") WHERE l."kind" = $1 AND l."owner" = $2 AND l."id" = u."id"`,
        [kind, owner, JSON.stringify(ids)],
        { prepare: true },
      );
    },
    async handOver(ids) {
      if (ids.length === 0) return;
      // Held by nobody, expired since ever: holderGone() holds for it, so the next taker gets it.
      await sql.unsafe(
        `UPDATE sim_leases l SET "owner" = '', "expires_at" = '-infinity' FROM jsonb_array_elements_text($3::text::jsonb) AS u("id") WHERE l."kind" = $1 AND l."owner" = $2 AND l."id" = u."id"`,
        [kind, owner, JSON.stringify(ids)],
        { prepare: true },
      );
    },
    async takeExpired(limit) {
      if (limit <= 0) return [];
      // SKIP LOCKED: concurrent takers lock different rows, and a taker that waited re-checks a row another
      // one just took (READ COMMITTED re-evaluates the WHERE on the new row, whose holder now beats), so
      // each lease of a gone instance goes to exactly one taker. The taker beats first: it is alive.
      const rows = await sql.unsafe<Array<{ id: string }>>(
        `WITH ${beat(2, 4, true)},` +
          ` "expired" AS (SELECT l."kind", l."id", l."expires_at" FROM sim_leases l WHERE l."kind" = $1 AND l."owner" <> $2 AND ${holderGone('l')}` +
          ` ORDER BY l."expires_at", l."id" LIMIT $3 FOR UPDATE OF l SKIP LOCKED),` +
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
  // This process's callers of one key, one after another: one key holds at most one lock connection.
  const inTurn = keyedSerial();

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
    exclusive: (key, task) => inTurn(key, () => locked(key, task)),
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
    async clearWindows(prefix) {
      await sql.unsafe('DELETE FROM sim_rate_windows WHERE starts_with("key", $1)', [prefix], { prepare: true });
    },
  };
}
