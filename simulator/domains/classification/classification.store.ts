// Classifications (`classifications`): the only file that touches the collection. A classification is kept
// so that `POST /api/trade/classify/apply` can write its code later by `classificationId` (spec 4.6); it is
// only ever read by id.
import type { KernelDeps } from '../../kernel/deps.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import type { ClassificationCandidate } from './classification.types.js';

export interface ClassificationRecord {
  id: string;
  rev?: number;
  tenantId: string;
  sku: string | null;
  description: string;
  productName: string | null;
  originCountry: string | null;
  destinationCountry: string | null;
  /** The best candidate; '' when no rule of the nomenclature matched (a review then decides). */
  hsCode: string;
  confidence: number;
  /** Best first: the chosen code, then the runner-up codes. */
  candidates: ClassificationCandidate[];
  requiresReview: boolean;
  reviewId: string | null;
  rationale: string;
  /** Which request made it: a single classify call, or a batch job. */
  jobId: string | null;
  createdAt: string;
}

export function classificationStore(deps: KernelDeps) {
  const classifications = deps.store.collection<ClassificationRecord, 'tenantId'>('classifications', {
    fields: { tenantId: (c) => c.tenantId },
    // DELETE /_sim/tenants/{tenantId}: reads are by id, the purge finds the tenant's records here.
    indexes: { byTenant: { keys: ['tenantId'] } },
  });
  return {
    /** The tenant's classification, or undefined (another tenant's reads as absent: spec 7 NOT_FOUND). */
    async get(tenantId: string, id: string): Promise<ClassificationRecord | undefined> {
      const found = await classifications.get(id);
      return found && found.tenantId === tenantId ? found : undefined;
    },
    async create(record: ClassificationRecord): Promise<ClassificationRecord> {
      const created = await classifications.create(record);
      if (!created) throw new Error(`classification ${record.id} already exists`);
      return created;
    },
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(classifications, { tenantId }),
  };
}

export type ClassificationStore = ReturnType<typeof classificationStore>;
