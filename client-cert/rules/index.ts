// The client rules, in the order the report shows them. Each is a small named check citing its sentence.
import { pollingPace, stopsWhenTerminal } from './polling.js';
import { noBlindRetryAfter4xx, noKeylessUploadRetry, waitsAfter429, writeRetriedOnceAfter5xx } from './retries.js';
import { exchangeBackoff, tokenReused } from './token.js';
import { checksPrefix, deduplicates, rejectsBadSignature, rejectsStaleTimestamp } from './webhooks.js';
import type { ClientRule } from '../types.js';

export const CLIENT_RULES: readonly ClientRule[] = [
  tokenReused,
  exchangeBackoff,
  waitsAfter429,
  writeRetriedOnceAfter5xx,
  noBlindRetryAfter4xx,
  noKeylessUploadRetry,
  pollingPace,
  stopsWhenTerminal,
  rejectsBadSignature,
  checksPrefix,
  rejectsStaleTimestamp,
  deduplicates,
];
