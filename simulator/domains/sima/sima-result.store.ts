// SIMA screening results (`simaResults`): the only file that touches the collection. Every screening is
// kept (the evidence history); the latest per tenant and SKU is the "current" result the read endpoints
// list (spec 4.2: latest result per SKU). A record is the contract's SimaResult item (spec 2.4) plus the
// bookkeeping that never leaves the sandbox.
import type { Schema } from '../../../contracts/generated/index.js';
import { cooperative } from '../../kernel/cooperate.js';
import type { KernelDeps } from '../../kernel/deps.js';
import { transitionLog } from '../../kernel/transition-log.js';
import type { Page, Where } from '../../kernel/store/collection.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import type { SimaOutcome } from './screening.js';
import type { SimaReviewAction } from './sima-review.machine.js';

export type SimaWorkflowStatus = Schema<'SimaWorkflowStatus'>;

/** One move of the review workflow (sima-review.machine.ts), kept for the evidence's audit trail. */
interface SimaReviewEvent {
  at: string;
  action: SimaReviewAction;
  from: SimaWorkflowStatus;
  to: SimaWorkflowStatus;
  note: string | null;
}

/** The filters of spec 4.2 (results: all of them; summary: outcome, workflow, workflow_not; report: outcomes). */
export interface SimaResultFilter {
  outcomes?: readonly SimaOutcome[];
  workflow?: SimaWorkflowStatus;
  workflowNot?: SimaWorkflowStatus;
  hsInScope?: boolean;
  isStale?: boolean;
}

/** spec 2.4 SIMA result item: the contract's SimaResult, every field present (the sandbox always sets them). */
export type SimaResultItem = Required<Schema<'SimaResult'>>;

export interface SimaResultRecord extends SimaResultItem {
  rev?: number;
  tenantId: string;
  jobId: string;
  screeningAuthority: 'CA' | 'US';
  /** Hash of everything the screening read: equal fingerprints are "identical inputs" (runPolicy). */
  fingerprint: string;
  /** Set when a later screening of the SKU replaced this one. */
  supersededAt: string | null;
  /** Review moves made while this was the SKU's current result, oldest first. */
  reviews?: SimaReviewEvent[];
}

/** A cuid-shaped id (spec 2.4: `c` + 24 of [a-z0-9]): time in base 36, then randomness from deps.ids. */
export function newCuid(deps: Pick<KernelDeps, 'clock' | 'ids'>): string {
  const time = deps.clock.now().toString(36).padStart(8, '0').slice(-8);
  const random = deps.ids.uuid().replace(/-/g, '').slice(0, 16);
  return `c${time}${random}`;
}

type ResultField = 'tenantId' | 'sku' | 'current' | 'outcome' | 'workflowStatus' | 'hsInScope' | 'isStale' | 'analysisDate';

/** How many records one page of an internal walk reads (summary exposure, report). */
const WALK_PAGE = 500;

/** The filters as conditions within the tenant's current results (index currentByTenant: no scan). */
function currentWhere(tenantId: string, filter: SimaResultFilter): Where<ResultField> {
  const where: Where<ResultField> = { tenantId, current: true };
  if (filter.outcomes) where.outcome = filter.outcomes.length === 1 ? filter.outcomes[0] : { in: filter.outcomes };
  // workflow and workflow_not name one field: both given and equal, nothing matches; else workflow decides.
  if (filter.workflow) where.workflowStatus = filter.workflow === filter.workflowNot ? { in: [] } : filter.workflow;
  // "not in this workflow state" (spec 4.2): a result without a workflow (CLEARED) is not in it, so it stays.
  else if (filter.workflowNot) where.workflowStatus = { notIn: [filter.workflowNot] };
  if (filter.hsInScope !== undefined) where.hsInScope = filter.hsInScope;
  if (filter.isStale !== undefined) where.isStale = filter.isStale;
  return where;
}

export function simaResultStore(deps: KernelDeps) {
  // The review workflow of each result (lifecycle sima-workflow; a result without a workflow is not in it).
  // Its moves are logged, not its creation: a screening job records results by the hundred thousand (issue 15
  // bench:large), and each result already carries the state it was created in and when (analysisDate).
  const results = transitionLog(deps).tracked(deps.store.collection<SimaResultRecord, ResultField>('simaResults', {
    fields: {
      tenantId: (r) => r.tenantId,
      sku: (r) => r.sku,
      current: (r) => r.supersededAt === null,
      outcome: (r) => r.outcome,
      workflowStatus: (r) => r.workflowStatus,
      hsInScope: (r) => r.hsInScope,
      isStale: (r) => r.isStale,
      analysisDate: (r) => r.analysisDate,
    },
    indexes: {
      // spec 4.2 GET /api/sima/results and /summary: a tenant's current results in SKU order, filtered by
      // outcome, workflow, workflow_not, hs_in_scope and is_stale within the tenant; cursor on (sku, id).
      currentByTenant: { keys: ['tenantId', 'current'], order: [['sku', 'asc']] },
      currentBySku: { keys: ['tenantId', 'sku', 'current'] },
      // Every screening of a SKU, oldest first (evidence history).
      history: { keys: ['tenantId', 'sku'], order: [['analysisDate', 'asc']] },
    },
  }), { machine: 'sima-workflow', state: (r) => r.workflowStatus, tenantId: (r) => r.tenantId, recordCreation: false });

  const markOne = async (id: string, version?: string) =>
    results.modify(id, (r) => (r.isStale || r.simaConfigVersion === version || r.supersededAt !== null ? undefined : { ...r, isStale: true }));

  return {
    current: async (tenantId: string, sku: string): Promise<SimaResultRecord | undefined> => results.first({ where: { tenantId, sku, current: true } }),
    currentForTenant: async (tenantId: string) => (await results.query({ where: { tenantId, current: true } })).items,
    /** Every screening of the SKU, oldest first. */
    history: async (tenantId: string, sku: string) => (await results.query({ where: { tenantId, sku } })).items,
    /** Stores a new screening as the SKU's current result; the previous one becomes history. */
    async record(result: SimaResultRecord): Promise<SimaResultRecord> {
      for (const previous of (await results.query({ where: { tenantId: result.tenantId, sku: result.sku, current: true } })).items) {
        // Compare-and-set (modify): a review landing meanwhile is kept on the superseded result.
        if (previous.id !== result.id) await results.modify(previous.id, (p) => ({ ...p, supersededAt: result.analysisDate }));
      }
      // No copy when it is already current: a spread and a property cost a hidden class per object (see the
      // store's write, kernel/store/store.ts); screening always passes supersededAt null.
      return results.put(result.supersededAt === null ? result : { ...result, supersededAt: null });
    },
    /** A page of the tenant's current results in SKU order; `after` is a cursor this store issued. */
    list: (tenantId: string, filter: SimaResultFilter, page: { limit: number; offset?: number; after?: string }): Promise<Page<SimaResultRecord>> =>
      results.query({ where: currentWhere(tenantId, filter), limit: page.limit, offset: page.offset, after: page.after }),
    /** Current results per outcome under the filter (GROUP BY outcome). */
    countByOutcome: (tenantId: string, filter: SimaResultFilter) => results.countGroups(currentWhere(tenantId, filter), 'outcome'),
    /** Every current result under the filter, in SKU order, read page by page along the index. */
    async *walk(tenantId: string, filter: SimaResultFilter): AsyncGenerator<SimaResultRecord> {
      let after: string | null = null;
      do {
        const page: Page<SimaResultRecord> = await results.query({ where: currentWhere(tenantId, filter), limit: WALK_PAGE, after });
        yield* page.items;
        after = page.nextCursor;
      } while (after);
    },
    /**
     * Marks the tenant's current results screened under another version than `version` stale (spec 2.4
     * `isStale`), walking the fresh ones along the index; each write is a compare-and-set (modify), so a
     * review landing meanwhile is kept. Returns how many became stale.
     */
    async markStale(tenantId: string, version: string): Promise<number> {
      let marked = 0;
      const giveWay = cooperative();
      for await (const result of this.walk(tenantId, { isStale: false })) {
        await giveWay();
        if (result.simaConfigVersion === version) continue;
        if (await markOne(result.id, version)) marked += 1;
      }
      return marked;
    },
    /** Marks one result stale unless it was screened under `version` (a screening that raced a publish). */
    markOneStale: (id: string, version?: string) => markOne(id, version),
    /** Compare-and-set on the revision the record was read at: null when another writer won. */
    update: (record: SimaResultRecord) => results.update(record),
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's results, current and superseded
     *  (the index on the tenant pins `current`). */
    purgeTenant: async (tenantId: string) => (await deleteMatching(results, { tenantId, current: true })) + (await deleteMatching(results, { tenantId, current: false })),
  };
}

/** The sandbox's bookkeeping on a result record: never sent. */
const BOOKKEEPING = new Set<keyof SimaResultRecord>(['rev', 'tenantId', 'jobId', 'screeningAuthority', 'fingerprint', 'supersededAt', 'reviews']);

/** The contract's item: the record without the sandbox's bookkeeping. */
export function toSimaResultItem(record: SimaResultRecord): SimaResultItem {
  // Copied key by key rather than with an object rest: V8 runs a rest with excluded keys in its runtime,
  // 4-5x slower on these 31-field records, and it was most of a results page's CPU (issue 15 bench).
  const item: Record<string, unknown> = {};
  for (const key of Object.keys(record) as (keyof SimaResultRecord)[]) if (!BOOKKEEPING.has(key)) item[key] = record[key];
  return item as SimaResultItem;
}

export type SimaResultStore = ReturnType<typeof simaResultStore>;
