// Classification reviews (`classificationReviews`): the only file that touches the collection. Lists are
// queries on declared indexes, newest first (creation order within the tenant, `seq`), optionally by status;
// the compliance check asks whether a SKU has a review still PENDING.
import type { KernelDeps } from '../../kernel/deps.js';
import { transitionLog } from '../../kernel/transition-log.js';
import type { Page } from '../../kernel/store/collection.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import type { ClassificationReviewStatus } from './classification-review.machine.js';
import type { ClassificationCandidate } from './classification.types.js';

export interface ClassificationReviewRecord {
  id: string;
  rev?: number;
  tenantId: string;
  classificationId: string;
  status: ClassificationReviewStatus;
  sku: string | null;
  description: string;
  suggestedHsCode: string;
  confidence: number;
  candidates: ClassificationCandidate[];
  finalHsCode: string | null;
  note: string | null;
  /** Creation order within the tenant: "newest first" without ties. */
  seq: number;
  createdAt: string;
  decidedAt: string | null;
}

type ReviewField = 'tenantId' | 'status' | 'sku' | 'seq';

export function classificationReviewStore(deps: KernelDeps) {
  const reviews = transitionLog(deps).tracked(deps.store.collection<ClassificationReviewRecord, ReviewField>('classificationReviews', {
    fields: { tenantId: (r) => r.tenantId, status: (r) => r.status, sku: (r) => r.sku, seq: (r) => r.seq },
    indexes: {
      // GET /api/trade/classify/reviews, newest first, with or without `status`.
      byTenant: { keys: ['tenantId'], order: [['seq', 'desc']] },
      byStatus: { keys: ['tenantId', 'status'], order: [['seq', 'desc']] },
      // POST /api/compliance/check: a SKU's reviews in a state.
      bySku: { keys: ['tenantId', 'sku', 'status'], order: [['seq', 'desc']] },
    },
  }), { machine: 'classification-review', state: (r) => r.status, tenantId: (r) => r.tenantId });
  return {
    async get(tenantId: string, id: string): Promise<ClassificationReviewRecord | undefined> {
      const found = await reviews.get(id);
      return found && found.tenantId === tenantId ? found : undefined;
    },
    async create(record: Omit<ClassificationReviewRecord, 'seq'>): Promise<ClassificationReviewRecord> {
      // One past the tenant's highest seq (byTenant is ordered by it): an index step, not a count.
      const seq = ((await reviews.first({ where: { tenantId: record.tenantId } }))?.seq ?? 0) + 1;
      const created = await reviews.create({ ...record, seq });
      if (!created) throw new Error(`classification review ${record.id} already exists`);
      return created;
    },
    /** Compare-and-set on `rev`: null when another writer won. */
    update: (record: ClassificationReviewRecord) => reviews.update(record),
    /** Newest first, or oldest first (the same index read backwards). */
    page: (tenantId: string, status: ClassificationReviewStatus | undefined, limit: number, offset: number, order: 'newest-first' | 'oldest-first' = 'newest-first'): Promise<Page<ClassificationReviewRecord>> =>
      reviews.query({ where: status ? { tenantId, status } : { tenantId }, ...(order === 'oldest-first' ? { orderBy: [['seq', 'asc']] as const } : {}), limit, offset }),
    countForSku: (tenantId: string, sku: string, status: ClassificationReviewStatus) => reviews.count({ tenantId, sku, status }),
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(reviews, { tenantId }),
  };
}

export type ClassificationReviewStore = ReturnType<typeof classificationReviewStore>;
