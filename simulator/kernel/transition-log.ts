// The append-only transition log (issue 16 item 2): every state change of every lifecycle machine, kept in
// the store collection `transitions` (durable, part of the journal: an answered request's moves are on disk
// with it, since the HTTP layer flushes before answering). It is the state history the console shows and
// audit evidence an integrator can export: GET /_sim/transitions.
//
// Where it is written: machine.ts `transition()` only computes the next state; a move happens when the
// record holding the state is written (move.ts's compare-and-set save, which may lose a race). So each domain
// store wraps its collection with `tracked()`, naming its machine by the contract's x-lifecycle name (listed
// in the domain's manifest, domains/manifests.ts), which appends one entry per committed write whose state
// differs from the stored one, creation included (from: null). A refused move (409) writes nothing, so it
// records nothing.
import { currentRequestId } from './defects.js';
import type { KernelDeps } from './deps.js';
import type { Collection, Page, StoredRecord, Where } from './store/collection.js';

interface TransitionEntry {
  id: string;
  rev?: number;
  /** Order of appending, sandbox-wide, never reused while the store lives. */
  seq: number;
  /** The tenant's virtual time (the sandbox clock for records that belong to no tenant). */
  at: string;
  tenantId: string | null;
  /** The contract's x-lifecycle name of the machine (a domain's manifest declares those of its stores). */
  machine: string;
  resourceId: string;
  /** null when the record was created in `to`. */
  from: string | null;
  to: string;
  /** X-Request-Id of the request that made the move; null for background work (the job worker, timers). */
  requestId: string | null;
}

interface TransitionFilter {
  tenantId?: string;
  machine?: string;
  resourceId?: string;
  limit: number;
  cursor?: string | null;
}

/** What a domain store says about its collection: which machine, and where the state and tenant live. */
interface TrackedMachine<T> {
  /** The contract's x-lifecycle name: one the domain's manifest lists in `lifecycles` (domains/manifests.test.ts). */
  machine: string;
  state: (record: T) => string | null | undefined;
  tenantId: (record: T) => string | null | undefined;
  /** Whether a record created in a state is an entry (from: null). Default true. */
  recordCreation?: boolean;
}

type Field = 'seq' | 'tenantId' | 'machine' | 'resourceId';
const OLDEST_FIRST = [['seq', 'asc']] as const;
const TRANSITIONS_COLLECTION = 'transitions';

export interface TransitionLog {
  append(entry: Omit<TransitionEntry, 'id' | 'seq' | 'at' | 'requestId'> & { requestId?: string | null }): Promise<TransitionEntry>;
  /** Oldest first; every filter is served by an index (no scan). */
  list(filter: TransitionFilter): Promise<Page<TransitionEntry>>;
  /** The collection wrapped so that each committed change of state is appended to the log. */
  tracked<T extends StoredRecord, F extends string>(collection: Collection<T, F>, machine: TrackedMachine<T>): Collection<T, F>;
}

// One log per store: every domain store reaches the same log (and the same seq) through its deps.
const logs = new WeakMap<object, TransitionLog>();

export function transitionLog(deps: Pick<KernelDeps, 'store' | 'clocks'>): TransitionLog {
  const existing = logs.get(deps.store);
  if (existing) return existing;
  const entries = deps.store.collection<TransitionEntry, Field>(TRANSITIONS_COLLECTION, {
    fields: { seq: (e) => e.seq, tenantId: (e) => e.tenantId, machine: (e) => e.machine, resourceId: (e) => e.resourceId },
    indexes: {
      all: { keys: [], order: OLDEST_FIRST },
      byTenant: { keys: ['tenantId'], order: OLDEST_FIRST },
      byMachine: { keys: ['machine'], order: OLDEST_FIRST },
      byTenantMachine: { keys: ['tenantId', 'machine'], order: OLDEST_FIRST },
      // A resource's history: its few entries, filtered by tenant or machine within them.
      byResource: { keys: ['resourceId'], order: OLDEST_FIRST },
    },
  });

  // The next seq continues from the stored log (a restart must not reuse a seq); read once, on first use.
  let nextSeq = 0;
  const pastNewestStored = async () => {
    const last = await entries.first({ where: {}, orderBy: [['seq', 'desc']] });
    nextSeq = Math.max(nextSeq, (last?.seq ?? 0) + 1);
  };
  let ready: Promise<void> | undefined;
  const seqReady = () => (ready ??= pastNewestStored());

  const append: TransitionLog['append'] = async (entry) => {
    await seqReady();
    const clock = entry.tenantId ? deps.clocks.of(entry.tenantId) : deps.clocks.sandbox;
    // Instances sharing a database (issue 17) count seqs each on their own: a seq another instance took is
    // refused by create(), and this one moves past the newest stored entry and tries again.
    for (let attempt = 0; attempt < 50; attempt++) {
      const seq = nextSeq++;
      const stored = await entries.create({
        id: `tr-${String(seq).padStart(12, '0')}`,
        seq,
        at: clock.nowIso(),
        tenantId: entry.tenantId,
        machine: entry.machine,
        resourceId: entry.resourceId,
        from: entry.from,
        to: entry.to,
        requestId: entry.requestId === undefined ? currentRequestId() : entry.requestId,
      });
      if (stored) return stored;
      await pastNewestStored();
    }
    throw new Error(`no free transition seq after 50 attempts (from ${nextSeq})`);
  };

  /** Appends the move a committed write made, if its state changed (creation: from null). */
  const moved = async <T extends StoredRecord>(spec: TrackedMachine<T>, before: T | undefined, after: T | null | undefined) => {
    if (!after || (!before && spec.recordCreation === false)) return;
    const from = before ? spec.state(before) ?? null : null;
    const to = spec.state(after) ?? null;
    if (to === null || from === to) return;
    await append({ tenantId: spec.tenantId(after) ?? null, machine: spec.machine, resourceId: after.id, from, to });
  };

  function tracked<T extends StoredRecord, F extends string>(collection: Collection<T, F>, spec: TrackedMachine<T>): Collection<T, F> {
    return {
      name: collection.name,
      get: (id) => collection.get(id),
      query: (query) => collection.query(query),
      first: (query) => collection.first(query),
      count: (where) => collection.count(where),
      countGroups: (where, field) => collection.countGroups(where, field),
      delete: (id) => collection.delete(id),
      async create(record) {
        const created = await collection.create(record);
        await moved(spec, undefined, created);
        return created;
      },
      async put(record) {
        const before = await collection.get(record.id);
        const stored = await collection.put(record);
        await moved(spec, before, stored);
        return stored;
      },
      async update(record) {
        // A compare-and-set that wins proves nothing moved the record since `record.rev`, so the record
        // read here (after the caller's read, before the write) is the one it replaced.
        const before = await collection.get(record.id);
        const stored = await collection.update(record);
        await moved(spec, before, stored);
        return stored;
      },
      async modify(id, change) {
        // The record `change` last saw is the one its result replaced (a store may retry it on a lost race).
        let before: T | undefined;
        const stored = await collection.modify(id, (current) => {
          before = current;
          return change(current);
        });
        await moved(spec, before, stored);
        return stored;
      },
    };
  }

  const log: TransitionLog = {
    append,
    list(filter) {
      const where: Where<Field> = {};
      if (filter.tenantId !== undefined) where.tenantId = filter.tenantId;
      if (filter.machine !== undefined) where.machine = filter.machine;
      if (filter.resourceId !== undefined) where.resourceId = filter.resourceId;
      return entries.query({ where, orderBy: OLDEST_FIRST, limit: filter.limit, after: filter.cursor ?? null });
    },
    tracked,
  };
  logs.set(deps.store, log);
  return log;
}
