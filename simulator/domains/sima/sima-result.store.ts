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
  tenantId: string;
  jobId: string;
  screeningAuthority: 'CA' | 'US';
  /** Hash of everything the screening read: equal fingerprints are "identical inputs" (runPolicy). */
  fingerprint: string;
  /** Set when a later screening of the SKU replaced this one. */
  supersededAt: string | null;
}

const key = (tenantId: string, sku: string) => `${tenantId}/${sku}`;

/** A cuid-shaped id (spec 2.4: `c` + 24 of [a-z0-9]): time in base 36, then randomness from deps.ids. */
export function newCuid(deps: Pick<KernelDeps, 'clock' | 'ids'>): string {
  const time = deps.clock.now().toString(36).padStart(8, '0').slice(-8);
  const random = deps.ids.uuid().replace(/-/g, '').slice(0, 16);
  return `c${time}${random}`;
}

export function simaResultStore(deps: KernelDeps) {
  const results = deps.store.collection<SimaResultRecord>('simaResults', {
    indexes: {
      currentByTenant: (r) => (r.supersededAt === null ? r.tenantId : undefined),
      currentBySku: (r) => (r.supersededAt === null ? key(r.tenantId, r.sku) : undefined),
      history: (r) => key(r.tenantId, r.sku),
    },
  });

  return {
    current: (tenantId: string, sku: string): SimaResultRecord | undefined => results.findBy('currentBySku', key(tenantId, sku))[0],
    currentForTenant: (tenantId: string) => results.findBy('currentByTenant', tenantId),
    /** Every screening of the SKU, oldest first. */
    history: (tenantId: string, sku: string) => results.findBy('history', key(tenantId, sku)).sort((a, b) => (a.analysisDate < b.analysisDate ? -1 : a.analysisDate > b.analysisDate ? 1 : 0)),
    /** Stores a new screening as the SKU's current result; the previous one becomes history. */
    record(result: SimaResultRecord): SimaResultRecord {
      for (const previous of results.findBy('currentBySku', key(result.tenantId, result.sku))) {
        if (previous.id !== result.id) results.put({ ...previous, supersededAt: result.analysisDate });
      }
      return results.put({ ...result, supersededAt: null });
    },
  };
}

/** The contract's item: the record without the sandbox's bookkeeping. */
export function toSimaResultItem(record: SimaResultRecord): SimaResultItem {
  const { tenantId: _tenantId, jobId: _jobId, screeningAuthority: _authority, fingerprint: _fingerprint, supersededAt: _supersededAt, ...item } = record;
  return item;
}

export type SimaResultStore = ReturnType<typeof simaResultStore>;
