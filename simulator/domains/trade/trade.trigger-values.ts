// Test values of the trade feed (simulator/TEST-VALUES.md): a feed row (or header) that raises each issue
// type of the normalizer (feed-normalize.rules.ts), blocking or not. These are the spec's own rules applied
// to chosen cells, not special cases: any feed with such a cell raises the same issue.
import type { TestValue } from '../../kernel/test-values.js';

/** One cell (or header) per issue type; `column` is the feed column it goes in. */
export const FEED_ISSUE_VALUES = [
  { issueType: 'missing_sku', blocking: true, column: 'sku', cell: '' },
  { issueType: 'sku_too_long', blocking: true, column: 'sku', cell: 'S'.repeat(201) },
  { issueType: 'missing_product_name', blocking: true, column: 'productName', cell: '' },
  { issueType: 'name_trimmed', blocking: false, column: 'productName', cell: '  Cotton tee  ' },
  { issueType: 'invalid_hs_code', blocking: true, column: 'hsCode', cell: 'ABC' },
  { issueType: 'hs_code_incomplete', blocking: false, column: 'hsCode', cell: '6109' },
  { issueType: 'hs_code_normalized', blocking: false, column: 'hsCode', cell: '6109 10-00' },
  { issueType: 'invalid_country', blocking: true, column: 'originCountry', cell: 'XX' },
  { issueType: 'destination_defaulted', blocking: false, column: 'destinationCountry', cell: '' },
  { issueType: 'duplicate_row', blocking: false, column: 'sku', cell: 'the same row twice' },
  { issueType: 'duplicate_sku', blocking: true, column: 'sku', cell: 'one SKU on two rows with different data' },
  { issueType: 'unnamed_column', blocking: false, column: '(header)', cell: 'a blank header cell' },
  { issueType: 'duplicate_column', blocking: false, column: '(header)', cell: 'a header repeated (e.g. sku twice)' },
] as const;

export const TRADE_TEST_VALUES: readonly TestValue[] = FEED_ISSUE_VALUES.map((v) => ({
  id: `trade.feed-issue.${v.issueType}`,
  area: 'trade',
  value: v.column === '(header)' ? v.cell : `${v.column} ${v.cell.length > 40 ? `of ${v.cell.length} characters` : JSON.stringify(v.cell)}`,
  effect: `the feed session lists a ${v.blocking ? 'blocking' : 'non-blocking'} ${v.issueType} issue${v.blocking ? ' (the session ends PREVIEW_BLOCKED)' : ''}`,
  operation: 'uploadTradeFeed',
  test: 'simulator/control/test-values.test.ts',
}));
