// The trade domain's hook points (kernel/deviations.ts): the named places where an entry of the catalogue
// (an injected defect or a legitimate variant, declared in trade.defects.ts) may change what is decided.
// The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';
import type { FeedDefaults } from './feed-normalize.rules.js';
import type { FeedApplyRow, FeedSkuRecord } from './trade.types.js';

/** One row of an apply body with the session's SKU it names: what apply writes into the tenant catalog. */
export interface RowToApply {
  row: FeedApplyRow;
  sku: FeedSkuRecord;
}

export const TRADE_HOOKS = {
  /** spec 4.4: whether an upload's country code that is not ISO 3166-1 alpha-2 is refused (400 naming the field). */
  uploadCountryChecked: hookPoint<boolean>('validation', 'trade.upload-country-checked'),
  /** spec 3.2: whether a blocking issue refuses acknowledgement (409: fix the file and upload it again). */
  blockingIssueAcknowledgementRefused: hookPoint<boolean>('rule', 'trade.blocking-issue-acknowledgement-refused'),
  /** spec 4.4: whether apply refuses a reviewed snapshot made from a preview that is no longer the current one. */
  staleSnapshotRefused: hookPoint<boolean>('rule', 'trade.stale-snapshot-refused'),
  /** spec 4.4: whether a classify-preview job in this state may be reviewed (else 409: not in a reviewable state). */
  previewReviewable: hookPoint<boolean, { status: string }>('rule', 'trade.preview-reviewable'),
  /** spec 4.4: the rows apply writes into the tenant catalog (and screens). */
  rowsApplied: hookPoint<readonly RowToApply[]>('store', 'trade.rows-applied'),
  /** spec 4.4, 8.6: the page of a session's issues listTradeFeedIssues reads. */
  issuesPage: hookPoint<{ limit: number; offset: number }>('store', 'trade.issues-page'),
  /** spec 4.4: whether a session read by id is found only within its tenant (another tenant's is 404). */
  sessionReadTenantScoped: hookPoint<boolean>('store', 'trade.session-read-tenant-scoped'),
  /** spec 4.4: the country a normalized row keeps (its own column's, else the feed-level default). */
  rowCountry: hookPoint<string | null, { field: 'originCountry' | 'destinationCountry'; defaults: FeedDefaults }>('rule', 'trade.row-country'),
  /** spec 2.5 (`issueKey` "opaque string"): the key an issue is recorded under, given the sandbox's readable one. */
  issueKey: hookPoint<string>('store', 'trade.issue-key'),
} as const;
