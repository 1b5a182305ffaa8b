// The trade domain's injectable defects (README "Defect injection"). Behaviour defects are one
// `defects.has('<id>')` line where the behaviour lives; the ones that only change what is sent are below,
// applied to final responses.
import { rewriteListItems, rewriteSuccessBody, type DefectEntry, type ResponseDefect } from '../../kernel/defects.js';

export const TRADE_DEFECTS: readonly DefectEntry[] = [
  { id: 'trade.country-unchecked', area: 'trade', description: 'the feed upload accepts country codes that are not ISO 3166-1 alpha-2 (e.g. XX)' },
  { id: 'trade.blocking-issues-ready', area: 'trade', description: 'a feed with blocking issues normalizes to READY instead of PREVIEW_BLOCKED' },
  { id: 'trade.issues-offset-ignored', area: 'trade', description: 'listTradeFeedIssues ignores `offset` (every page is the first)' },
  { id: 'trade.preview-not-ready', area: 'trade', description: 'classify-preview starts on a session that is not READY' },
  { id: 'trade.stale-snapshot-applied', area: 'trade', description: 'apply accepts a reviewed snapshot made from an older preview' },
  { id: 'trade.blocking-acknowledged', area: 'trade', description: 'the acknowledgement action accepts a blocking issue' },
  { id: 'trade.applyable-with-blocking', area: 'trade', description: 'session detail says applyable: true while blocking issues remain' },
  { id: 'trade.issue-count-off', area: 'trade', description: 'session detail reports issueCount one lower than the issues listed' },
  { id: 'trade.session-leaks', area: 'trade', description: "another tenant's feed session is readable (200 instead of 404)" },
  { id: 'trade.sku-hs-dropped', area: 'trade', description: 'listTradeFeedSkus sends providedHs null for every SKU' },
  { id: 'trade.apply-drops-last-row', area: 'trade', description: 'apply answers APPLIED but writes (and screens) every row except the last into the tenant catalog' },
];

const SESSION_OPS = ['getTradeFeedSession', 'applyTradeFeedSession'];
const count = (value: unknown) => (typeof value === 'number' ? value : 0);

export const TRADE_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  rewriteSuccessBody('trade.applyable-with-blocking', SESSION_OPS, (body) => (count(body.blockingIssueCount) > 0 ? { ...body, applyable: true } : undefined)),
  rewriteSuccessBody('trade.issue-count-off', SESSION_OPS, (body) => (count(body.issueCount) > 0 ? { ...body, issueCount: count(body.issueCount) - 1 } : undefined)),
  rewriteListItems('trade.sku-hs-dropped', ['listTradeFeedSkus'], 'skus', (sku) => ({ ...sku, providedHs: null })),
];
