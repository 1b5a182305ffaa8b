// A classify preview's proposals (`feedPreviewRows`) and reviewed snapshots (`feedReviews`): the only file
// that touches them. A proposal's id is derived from its job and SKU, so a preview run again after a
// restart rewrites the same records.
import type { KernelDeps } from '../../kernel/deps.js';
import { deleteIds, deleteMatching } from '../../kernel/store/delete-matching.js';
import type { FeedReviewRow } from './trade.types.js';

export interface FeedPreviewRowRecord {
  /** `${jobId}/${sku}`. */
  id: string;
  rev?: number;
  jobId: string;
  sessionId: string;
  rowNumber: number;
  sku: string;
  productName: string;
  hsCode: string | null;
  confidence: number;
  alternatives: Array<{ hsCode: string; confidence: number; description: string }>;
  rationale: string;
}

export interface FeedReviewRecord {
  /** The snapshotId. */
  id: string;
  rev?: number;
  tenantId: string;
  sessionId: string;
  /** The preview whose output the snapshot was made from: the artifact apply compares with (spec 4.4). */
  previewJobId: string;
  rows: FeedReviewRow[];
  toggles: Record<string, boolean>;
  reviewedAt: string;
}

export function feedPreviewStore(deps: KernelDeps) {
  const proposals = deps.store.collection<FeedPreviewRowRecord, 'jobId' | 'rowNumber' | 'sessionId'>('feedPreviewRows', {
    fields: { jobId: (r) => r.jobId, rowNumber: (r) => r.rowNumber, sessionId: (r) => r.sessionId },
    // bySession: DELETE /_sim/tenants/{tenantId} finds every preview of the tenant's sessions.
    indexes: { byJob: { keys: ['jobId'], order: [['rowNumber', 'asc']] }, bySession: { keys: ['sessionId'] } },
  });
  const reviews = deps.store.collection<FeedReviewRecord>('feedReviews');
  return {
    putProposal: (record: FeedPreviewRowRecord) => proposals.put(record),
    getProposal: (jobId: string, sku: string) => proposals.get(`${jobId}/${sku}`),
    proposalCount: (jobId: string) => proposals.count({ jobId }),
    putReview: (record: FeedReviewRecord) => reviews.put(record),
    getReview: (snapshotId: string) => reviews.get(snapshotId),
    /** DELETE /_sim/tenants/{tenantId}: the proposals of every preview of a session, and the snapshot it names
     *  (one replaced by a later review is named by nothing and stays: control/tenant-purge.ts). */
    purgeSession: async (sessionId: string, reviewedSnapshotId: string | null | undefined) =>
      (await deleteMatching(proposals, { sessionId })) + (typeof reviewedSnapshotId === 'string' ? await deleteIds(reviews, [reviewedSnapshotId]) : 0),
  };
}

export type FeedPreviewStore = ReturnType<typeof feedPreviewStore>;
