// The trade domain's deviations (README "Defect injection"), as data: rows of the feed session table
// (applied by transition()), rules at the hook points of trade.hooks.ts, and below them the ones that only
// change what is sent, applied to final responses.
import { createHash } from 'node:crypto';
import { isBodyObject, rewriteListItems, rewriteSuccessBody, type DefectEntry, type ResponseDefect } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { deviateMachine } from '../../kernel/machine.js';
import { feedSessionMachine } from './feed-session.machine.js';
import { TRADE_HOOKS } from './trade.hooks.js';

export const TRADE_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'trade.country-unchecked', area: 'trade', description: 'the feed upload accepts country codes that are not ISO 3166-1 alpha-2 (e.g. XX)', hooks: [at(TRADE_HOOKS.uploadCountryChecked, () => false)] },
  {
    kind: 'defect',
    id: 'trade.blocking-issues-ready',
    area: 'trade',
    description: 'a feed with blocking issues normalizes to READY instead of PREVIEW_BLOCKED',
    machine: [deviateMachine(feedSessionMachine, { add: [{ from: ['NORMALIZING'], action: 'finish_blocked', to: (facts) => (facts.blockingIssueCount > 0 ? 'READY' : 'PREVIEW_BLOCKED') }] })],
  },
  {
    kind: 'defect',
    id: 'trade.nonblocking-ready',
    area: 'trade',
    description: 'a feed whose issues are all non-blocking normalizes to READY (nothing left to acknowledge) instead of PREVIEW_BLOCKED',
    machine: [deviateMachine(feedSessionMachine, { add: [{ from: ['NORMALIZING'], action: 'finish_blocked', to: (facts) => (facts.blockingIssueCount === 0 && facts.issueCount > 0 ? 'READY' : 'PREVIEW_BLOCKED') }] })],
  },
  { kind: 'defect', id: 'trade.row-destination-ignored', area: 'trade', description: "a row's own destinationCountry is replaced by the feed's defaultDestinationCountry (rows cannot override it)", hooks: [at(TRADE_HOOKS.rowCountry, (country, { field, defaults }) => (field === 'destinationCountry' && country !== null ? defaults.defaultDestinationCountry : country))] },
  { kind: 'defect', id: 'trade.issues-offset-ignored', area: 'trade', description: 'listTradeFeedIssues ignores `offset` (every page is the first)', hooks: [at(TRADE_HOOKS.issuesPage, (page) => (page.offset === 0 ? page : { ...page, offset: 0 }))] },
  {
    kind: 'defect',
    id: 'trade.preview-not-ready',
    area: 'trade',
    description: 'classify-preview starts on a session that is not READY',
    // Whatever the state, the preview starts and leaves it where it is.
    machine: [deviateMachine(feedSessionMachine, { add: [{ from: feedSessionMachine.states.filter((s) => s !== 'READY'), action: 'classify_preview', to: (_facts, current) => current }] })],
  },
  { kind: 'defect', id: 'trade.stale-snapshot-applied', area: 'trade', description: 'apply accepts a reviewed snapshot made from an older preview', hooks: [at(TRADE_HOOKS.staleSnapshotRefused, () => false)] },
  { kind: 'defect', id: 'trade.review-before-preview-ends', area: 'trade', description: 'review accepts (200) a classify-preview job that is still PENDING or PROCESSING', hooks: [at(TRADE_HOOKS.previewReviewable, (reviewable, { status }) => reviewable || status === 'PENDING' || status === 'PROCESSING')] },
  { kind: 'defect', id: 'trade.blocking-acknowledged', area: 'trade', description: 'the acknowledgement action accepts a blocking issue', hooks: [at(TRADE_HOOKS.blockingIssueAcknowledgementRefused, () => false)] },
  { kind: 'defect', id: 'trade.applyable-with-blocking', area: 'trade', description: 'session detail says applyable: true while blocking issues remain' },
  { kind: 'defect', id: 'trade.applyable-after-apply', area: 'trade', description: 'session detail of an APPLIED session still says applyable: true' },
  { kind: 'defect', id: 'trade.issue-count-off', area: 'trade', description: 'session detail reports issueCount one lower than the issues listed' },
  { kind: 'defect', id: 'trade.session-leaks', area: 'trade', description: "another tenant's feed session is readable (200 instead of 404)", hooks: [at(TRADE_HOOKS.sessionReadTenantScoped, () => false)] },
  { kind: 'defect', id: 'trade.sku-hs-dropped', area: 'trade', description: 'listTradeFeedSkus sends providedHs null for every SKU' },
  // Off by one: every row but the last (an empty apply stays empty).
  { kind: 'defect', id: 'trade.apply-drops-last-row', area: 'trade', description: 'apply answers APPLIED but writes (and screens) every row except the last into the tenant catalog', hooks: [at(TRADE_HOOKS.rowsApplied, (rows) => (rows.length ? rows.slice(0, -1) : rows))] },
];

const SESSION_OPS = ['getTradeFeedSession', 'applyTradeFeedSession'];

/** trade.issue-key-hashed: an opaque key of the same issue (the same readable key always hashes the same). */
const hashedIssueKey = (key: string) => `iss_${createHash('sha256').update(key).digest('hex').slice(0, 20)}`;

/** trade.feed-pages-other-keys: a SKU or issue page re-keyed, its paging facts nested under `page`. */
const otherPageKeys = (key: 'skus' | 'issues') => (body: Record<string, unknown>) => {
  if (!Array.isArray(body[key])) return undefined;
  const { [key]: items, total, limit, offset, hasMore: _hasMore, ...rest } = body;
  const shown = (items as unknown[]).length;
  const next = typeof offset === 'number' && typeof total === 'number' && offset + shown < total ? offset + shown : null;
  return { ...rest, items, page: { totalCount: total, limit, offset, nextOffset: next } };
};

/** trade.proposal-other-shape: the preview's proposal for a SKU under another name and shape. */
const otherProposal = (sku: Record<string, unknown>) => {
  const { proposal, ...rest } = sku;
  if (!isBodyObject(proposal)) return { ...rest, suggestion: null };
  const options = Array.isArray(proposal.alternatives) ? proposal.alternatives.map((a) => (isBodyObject(a) ? { code: a.hsCode, score: a.confidence } : a)) : [];
  return { ...rest, suggestion: { code: proposal.hsCode, score: proposal.confidence, fromPreview: proposal.previewJobId, options } };
};
const count = (value: unknown) => (typeof value === 'number' ? value : 0);

/** Legitimate variants of the trade feed domain (README "Variants"): choices the spec leaves open. */
export const TRADE_VARIANTS: readonly DefectEntry[] = [
  { kind: 'variant', id: 'trade.session-extra-fields', area: 'trade', description: 'the session detail (get, apply) also carries `normalizerVersion` and `source`', spec: 'spec 2.5: "Other fields of the session detail and of a SKU item beyond these and the ones named in 4.4: not shown."' },
  { kind: 'variant', id: 'trade.issue-key-hashed', area: 'trade', description: 'issue keys are `iss_` and 20 hex digits of a hash (not the readable `<type>:row:<n>`); acknowledgement takes them the same way', spec: 'spec 2.5: "Issue: `isBlocking` (boolean), `issueType` (string), `message` (string), `issueKey` (opaque string)."', hooks: [at(TRADE_HOOKS.issueKey, hashedIssueKey)] },
  { kind: 'variant', id: 'trade.feed-pages-other-keys', area: 'trade', description: 'the SKU and issue pages are `{ items, page: { totalCount, limit, offset, nextOffset } }`: another item key, no `total` or `hasMore` at the top (`nextOffset` null on the last page)', spec: 'spec 4.4 GET /api/trade/feeds/:sessionId/skus: "200 SKU page"; GET .../issues: "200 issue page (blocking and non-blocking)": the page\'s fields are not given' },
  { kind: 'variant', id: 'trade.review-result-other-shape', area: 'trade', description: 'the review answers `{ snapshot: { id, previewJobId, sessionId, reviewedAt, rows, toggles } }` instead of the flat record with `snapshotId` and `rowCount`', spec: 'spec 2.5: "The reviewed snapshot sent on review (rows and toggles) has a shape that is not shown beyond those two words."; spec 4.4 PUT .../review: "200 reviewed snapshot persisted"' },
  { kind: 'variant', id: 'trade.proposal-other-shape', area: 'trade', description: 'a SKU carries the classify preview\'s proposal as `suggestion: { code, score, fromPreview, options: [{ code, score }] }` instead of `proposal: { previewJobId, hsCode, confidence, alternatives }`', spec: 'spec 2.5: "Other fields of the session detail and of a SKU item beyond these and the ones named in 4.4: not shown."; spec 4.4: "The classify-preview, review, apply path is for AI-assisted classification" (no proposal field is named)' },
  { kind: 'variant', id: 'trade.sku-extra-fields', area: 'trade', description: 'feed SKU items also carry `source: "feed"` and `normalizerVersion`', spec: 'spec 2.5: "Other fields of the session detail and of a SKU item beyond these and the ones named in 4.4: not shown."' },
];

export const TRADE_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  rewriteSuccessBody('trade.session-extra-fields', ['getTradeFeedSession', 'applyTradeFeedSession'], (body) => (typeof body.sessionId === 'string' ? { ...body, normalizerVersion: 'feed-normalizer/2', source: 'integration' } : undefined)),
  rewriteSuccessBody('trade.applyable-with-blocking', SESSION_OPS, (body) => (count(body.blockingIssueCount) > 0 ? { ...body, applyable: true } : undefined)),
  rewriteSuccessBody('trade.applyable-after-apply', SESSION_OPS, (body) => (body.status === 'APPLIED' ? { ...body, applyable: true } : undefined)),
  rewriteSuccessBody('trade.issue-count-off', SESSION_OPS, (body) => (count(body.issueCount) > 0 ? { ...body, issueCount: count(body.issueCount) - 1 } : undefined)),
  rewriteListItems('trade.sku-extra-fields', ['listTradeFeedSkus'], 'skus', (sku) => ({ ...sku, source: 'feed', normalizerVersion: 'feed-normalizer/2' })),
  rewriteListItems('trade.proposal-other-shape', ['listTradeFeedSkus'], 'skus', otherProposal),
  rewriteSuccessBody('trade.review-result-other-shape', ['reviewTradeFeedClassifyPreview'], ({ snapshotId, previewJobId, sessionId, reviewedAt, rows, toggles }) =>
    typeof snapshotId === 'string' ? { snapshot: { id: snapshotId, previewJobId, sessionId, reviewedAt, rows, toggles } } : undefined,
  ),
  rewriteListItems('trade.sku-hs-dropped', ['listTradeFeedSkus'], 'skus', (sku) => ({ ...sku, providedHs: null })),
  // Last: the SKU rewrites above find the page's items under `skus`.
  rewriteSuccessBody('trade.feed-pages-other-keys', ['listTradeFeedSkus'], otherPageKeys('skus')),
  rewriteSuccessBody('trade.feed-pages-other-keys', ['listTradeFeedIssues'], otherPageKeys('issues')),
];
