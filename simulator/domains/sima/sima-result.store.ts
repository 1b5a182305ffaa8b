// SIMA screening results (`simaResults`): the only file that touches the collection. Every screening is
// kept (the evidence history); the latest per tenant and SKU is the "current" result the read endpoints
// list (spec 4.2: latest result per SKU). A record is the contract's SimaResult item (spec 2.4) plus the
// bookkeeping that never leaves the sandbox.
import type { KernelDeps } from '../../kernel/deps.js';
import type { SimaOutcome } from './screening.js';

export type SimaWorkflowStatus = 'OPEN' | 'OVERRIDDEN' | 'ACCEPTED' | 'DISMISSED';

/** spec 2.4 SIMA result item (schemas/sima.yaml SimaResult). */
export interface SimaResultItem {
  id: string;
  sku: string;
  outcome: SimaOutcome;
  status: SimaOutcome;
  workflowStatus: SimaWorkflowStatus | null;
  reasonCode: string | null;
  measureCode: string | null;
  hsInScope: boolean;
  currentHs: string;
  correctedHs: string | null;
  countryOfOrigin: string | null;
  materialType: string | null;
  confidence: number;
  evidence: Record<string, unknown> | null;
  analysisDate: string;
  simaConfigVersion: string | null;
  needsReviewSince: string | null;
  isStale: boolean;
  exposureAnnual: number | null;
  adRate: number | null;
  cvdRate: number | null;
  combinedRate: number | null;
  caseNumber: string | null;
  hasRestrictedComponents: boolean;
  missingAttributes: string[];
}

export interface SimaResultRecord extends SimaResultItem {
  rev?: number;
  tenantId: string;
  jobId: string;
  screeningAuthority: 'CA' | 'US';
  /** Hash of everything the screening read: equal fingerprints are "identical inputs" (runPolicy). */
  fingerprint: string;
  /** Set when a later screening of the SKU replaced this one. */
  supersededAt: string | null;
}

/** A cuid-shaped id (spec 2.4: `c` + 24 of [a-z0-9]): time in base 36, then randomness from deps.ids. */
export function newCuid(deps: Pick<KernelDeps, 'clock' | 'ids'>): string {
  const time = deps.clock.now().toString(36).padStart(8, '0').slice(-8);
  const random = deps.ids.uuid().replace(/-/g, '').slice(0, 16);
  return `c${time}${random}`;
}

type ResultField = 'tenantId' | 'sku' | 'current' | 'outcome' | 'workflowStatus' | 'hsInScope' | 'isStale' | 'analysisDate';

export function simaResultStore(deps: KernelDeps) {
  const results = deps.store.collection<SimaResultRecord, ResultField>('simaResults', {
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
  });

  return {
    current: async (tenantId: string, sku: string): Promise<SimaResultRecord | undefined> => (await results.query({ where: { tenantId, sku, current: true }, limit: 1 })).items[0],
    currentForTenant: async (tenantId: string) => (await results.query({ where: { tenantId, current: true } })).items,
    /** Every screening of the SKU, oldest first. */
    history: async (tenantId: string, sku: string) => (await results.query({ where: { tenantId, sku } })).items,
    /** Stores a new screening as the SKU's current result; the previous one becomes history. */
    async record(result: SimaResultRecord): Promise<SimaResultRecord> {
      for (const previous of (await results.query({ where: { tenantId: result.tenantId, sku: result.sku, current: true } })).items) {
        if (previous.id !== result.id) await results.put({ ...previous, supersededAt: result.analysisDate });
      }
      return results.put({ ...result, supersededAt: null });
    },
  };
}

/** The contract's item: the record without the sandbox's bookkeeping. */
export function toSimaResultItem(record: SimaResultRecord): SimaResultItem {
  const { rev: _rev, tenantId: _tenantId, jobId: _jobId, screeningAuthority: _authority, fingerprint: _fingerprint, supersededAt: _supersededAt, ...item } = record;
  return item;
}

export type SimaResultStore = ReturnType<typeof simaResultStore>;
