// The one place a trade feed session, SKU or issue is shaped for a response (spec 2.5; contract
// schemas/trade-feeds.yaml FeedSession, FeedSku, FeedIssue).
import type { FeedPreviewRowRecord } from './feed-preview.store.js';
import type { FeedSessionFacts } from './feed-session.machine.js';
import type { FeedIssueItem, FeedIssueRecord, FeedSessionBody, FeedSessionRecord, FeedSkuItem, FeedSkuRecord } from './trade.types.js';

/**
 * spec 2.5 `applyable`: READY, or the direct-apply shortcut (spec 3.2: PREVIEW_BLOCKED with no issues);
 * never while an apply is in flight.
 */
function isApplyable(s: Pick<FeedSessionRecord, 'status' | 'issueCount' | 'blockingIssueCount' | 'applyInFlight'>): boolean {
  if (s.applyInFlight) return false;
  return s.status === 'READY' || (s.status === 'PREVIEW_BLOCKED' && s.issueCount === 0 && s.blockingIssueCount === 0);
}

/** What the machine's apply guard reads. */
export const factsOf = (s: FeedSessionRecord): FeedSessionFacts => ({ applyable: isApplyable(s), issueCount: s.issueCount, blockingIssueCount: s.blockingIssueCount });

export function toFeedSession(s: FeedSessionRecord): FeedSessionBody & { screeningJobId: string | null } {
  return {
    sessionId: s.id,
    status: s.status,
    fileName: s.fileName,
    applyable: isApplyable(s),
    issueCount: s.issueCount,
    blockingIssueCount: s.blockingIssueCount,
    ...(s.jobId ? { jobId: s.jobId } : {}),
    originCountry: s.originCountry,
    defaultDestinationCountry: s.defaultDestinationCountry,
    normalizationProgress: s.normalizationProgress,
    failureReason: s.failureReason,
    skuCount: s.skuCount,
    reviewedSnapshotId: s.reviewedSnapshotId,
    screeningJobId: s.screeningJobId,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    appliedAt: s.appliedAt,
  };
}

/** A SKU with the current preview's proposal for it (feed-preview.store.ts), or null. */
export const toFeedSku = (r: FeedSkuRecord, proposal: FeedPreviewRowRecord | undefined | null = null): FeedSkuItem => ({
  sku: r.sku,
  productName: r.productName,
  providedHs: r.providedHs,
  rowNumber: r.rowNumber,
  originCountry: r.originCountry,
  destinationCountry: r.destinationCountry,
  attributes: r.attributes,
  proposal: proposal ? { previewJobId: proposal.jobId, hsCode: proposal.hsCode, confidence: proposal.confidence, alternatives: proposal.alternatives, rationale: proposal.rationale } : null,
});

export const toFeedIssue = (r: FeedIssueRecord): FeedIssueItem => ({
  isBlocking: r.isBlocking,
  issueType: r.issueType,
  message: r.message,
  issueKey: r.issueKey,
  rowNumber: r.rowNumber,
  field: r.field,
  acknowledged: r.acknowledged,
  acknowledgedAt: r.acknowledgedAt,
});
