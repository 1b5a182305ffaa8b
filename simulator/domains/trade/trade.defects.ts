// The trade domain's injectable defects (README "Defect injection"). Behaviour defects are one
// `defects.has('<id>')` line where the behaviour lives; the ones that only change what is sent are below,
// applied to final responses.
import { rewriteListItems, rewriteSuccessBody, type DefectEntry, type ResponseDefect } from '../../kernel/defects.js';

export const TRADE_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'trade.country-unchecked', area: 'trade', description: 'the feed upload accepts country codes that are not ISO 3166-1 alpha-2 (e.g. XX)' },
  { kind: 'defect', id: 'trade.blocking-issues-ready', area: 'trade', description: 'a feed with blocking issues normalizes to READY instead of PREVIEW_BLOCKED' },
  { kind: 'defect', id: 'trade.issues-offset-ignored', area: 'trade', description: 'listTradeFeedIssues ignores `offset` (every page is the first)' },
  { kind: 'defect', id: 'trade.preview-not-ready', area: 'trade', description: 'classify-preview starts on a session that is not READY' },
  { kind: 'defect', id: 'trade.stale-snapshot-applied', area: 'trade', description: 'apply accepts a reviewed snapshot made from an older preview' },
  { kind: 'defect', id: 'trade.blocking-acknowledged', area: 'trade', description: 'the acknowledgement action accepts a blocking issue' },
  { kind: 'defect', id: 'trade.applyable-with-blocking', area: 'trade', description: 'session detail says applyable: true while blocking issues remain' },
  { kind: 'defect', id: 'trade.issue-count-off', area: 'trade', description: 'session detail reports issueCount one lower than the issues listed' },
  { kind: 'defect', id: 'trade.session-leaks', area: 'trade', description: "another tenant's feed session is readable (200 instead of 404)" },
  { kind: 'defect', id: 'trade.sku-hs-dropped', area: 'trade', description: 'listTradeFeedSkus sends providedHs null for every SKU' },
  { kind: 'defect', id: 'trade.apply-drops-last-row', area: 'trade', description: 'apply answers APPLIED but writes (and screens) every row except the last into the tenant catalog' },
];

const SESSION_OPS = ['getTradeFeedSession', 'applyTradeFeedSession'];
const count = (value: unknown) => (typeof value === 'number' ? value : 0);

export const TRADE_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  rewriteSuccessBody('trade.applyable-with-blocking', SESSION_OPS, (body) => (count(body.blockingIssueCount) > 0 ? { ...body, applyable: true } : undefined)),
  rewriteSuccessBody('trade.issue-count-off', SESSION_OPS, (body) => (count(body.issueCount) > 0 ? { ...body, issueCount: count(body.issueCount) - 1 } : undefined)),
  rewriteListItems('trade.sku-hs-dropped', ['listTradeFeedSkus'], 'skus', (sku) => ({ ...sku, providedHs: null })),
];
