import type { SettledBy } from '../jobs/index.js';
// The trade domain's types (spec 2.5, 3.2, 4.4: durable trade feed sessions).
import type { Schema } from '../../../contracts/generated/index.js';
import type { StoredUpload } from '../../kernel/uploads/uploaded-file.js';
import type { DomainModule } from '../domain.js';

export type FeedSessionStatus = Schema<'FeedSessionStatus'>;
export type FeedSessionBody = Schema<'FeedSession'>;
export type FeedSkuItem = Schema<'FeedSku'>;
export type FeedIssueItem = Schema<'FeedIssue'>;
export type FeedReviewRow = Schema<'FeedReviewRow'>;
export type FeedApplyRow = Schema<'FeedApplyRow'>;

export interface FeedSessionRecord {
  /** The sessionId. */
  id: string;
  rev?: number;
  tenantId: string;
  status: FeedSessionStatus;
  fileName: string;
  /** The normalization job (null for the instant between the session's creation and its job's). */
  jobId: string | null;
  originCountry: string;
  defaultDestinationCountry: string;
  normalizationProgress: number;
  failureReason: string | null;
  skuCount: number;
  /** Blocking and non-blocking issues, acknowledged or not (spec 2.5 issueCount). */
  issueCount: number;
  blockingIssueCount: number;
  /** Non-blocking issues not yet acknowledged: PREVIEW_BLOCKED until none is left (spec 3.2). */
  openIssueCount: number;
  /** SKUs without providedHs: what a classify preview has to work on. */
  unclassifiedCount: number;
  /** The classify-preview job whose output is the current normalized artifact, if any. */
  currentPreviewJobId: string | null;
  /** The preview job in flight, if any. */
  previewInFlight: string | null;
  reviewedSnapshotId: string | null;
  applyInFlight: boolean;
  screeningJobId: string | null;
  createdAt: string;
  updatedAt: string;
  appliedAt: string | null;
  /** The normalization job's verdict, written with the move that ended it (READY, PREVIEW_BLOCKED or
   *  FAILED): that job run again after a restart ends with it (jobs.settlement.ts). Never sent. */
  settledBy?: SettledBy | null;
}

export interface FeedSkuRecord {
  /** `${sessionId}/${sku}`. */
  id: string;
  rev?: number;
  sessionId: string;
  rowNumber: number;
  sku: string;
  productName: string;
  providedHs: string | null;
  originCountry: string;
  destinationCountry: string;
  attributes: Record<string, string>;
}

export interface FeedIssueRecord {
  /** `${sessionId}/${issueKey}`. */
  id: string;
  rev?: number;
  sessionId: string;
  /** Order of discovery within the session (issues list order). */
  seq: number;
  issueKey: string;
  isBlocking: boolean;
  issueType: string;
  message: string;
  rowNumber: number | null;
  field: string | null;
  acknowledged: boolean;
  acknowledgedAt: string | null;
}

/** The normalization job's input (job type catalog_upload, variant trade_feed_normalize). */
export interface FeedNormalizeInput {
  sessionId: string;
  file: StoredUpload;
}

/** The classify-preview job's input (job type catalog_upload, variant trade_feed_preview). */
export interface FeedPreviewInput {
  sessionId: string;
}

/** What the trade domain needs from a classifier (the advanced trade path's, spec 4.6). */
export interface ProductClassifier {
  (input: { sku?: string; productName: string; attributes?: Record<string, string>; originCountry?: string | null }): {
    hsCode: string | null;
    confidence: number;
    alternatives: Array<{ hsCode: string; confidence: number; description: string }>;
    rationale: string;
  };
}

/** What the trade domain offers the composition root: its handlers and the dashboard action of spec 1 / 5.5. */
export interface TradeDomain extends DomainModule {
  /** Acknowledges non-blocking issues of a session (all open ones when no keys are named); answers the session detail. */
  acknowledgeIssues(tenantId: string, sessionId: string, issueKeys?: readonly string[]): Promise<FeedSessionBody>;
}
