// spec 5.2: the bearer token lives `expires_in` seconds and is re-exchanged on 401 INVALID_TOKEN: a client
// reuses it until then instead of exchanging the key per call.
import { answeredMs, atMs, errorCode, isExchange, isInvalidToken, label, virtualMs } from '../evidence.js';
import type { ClientRule, Evidence, LoggedRequest, RuleOutcome } from '../types.js';

/** Seconds before the announced expiry from which a fresh exchange is fair (a client may renew early). */
const RENEW_MARGIN_S = 300;

export const tokenReused: ClientRule = {
  id: 'token.reused',
  title: 'The token is exchanged once per lifetime, and again only after a 401 INVALID_TOKEN',
  spec: 'spec 5',
  sentence:
    'spec 5.2: "The bearer token is short-lived (typically 3600 seconds, given as `expires_in`). On 401 `INVALID_TOKEN`, re-exchange the key and retry the current request once."',
  level: 'required',
  how: `After a successful exchange, another exchange is fair only when the token's announced lifetime is within ${RENEW_MARGIN_S} s of its end (tenant clock), when a request of the client was answered 401 INVALID_TOKEN since, or as a retry of a failed exchange. Exercised when the client sent at least one request with a token after its first exchange.`,
  judge(evidence: Evidence): RuleOutcome {
    const lines: string[] = [];
    const failures: string[] = [];
    let current: { request: LoggedRequest; expiresAtMs: number } | null = null;
    let sawInvalidToken = false;
    let bearerCalls = 0;
    for (const r of evidence.requests) {
      if (!isExchange(r)) {
        if (current) bearerCalls += 1;
        if (isInvalidToken(r)) sawInvalidToken = true;
        continue;
      }
      if (current && r.status === 200) {
        const early = virtualMs(r) < current.expiresAtMs - RENEW_MARGIN_S * 1000;
        if (early && !sawInvalidToken) {
          failures.push(`${label(r, evidence.startedAtMs)}: exchanged again ${((current.expiresAtMs - virtualMs(r)) / 1000).toFixed(0)} s before the token of ${current.request.id} expired, with no 401 INVALID_TOKEN since`);
        } else lines.push(`${label(r, evidence.startedAtMs)}: re-exchange ${sawInvalidToken ? 'after a 401 INVALID_TOKEN' : 'at the end of the lifetime'}`);
      }
      if (r.status === 200) {
        const expiresIn = (r.response.body as { expires_in?: unknown } | null)?.expires_in;
        current = { request: r, expiresAtMs: virtualMs(r) + (typeof expiresIn === 'number' ? expiresIn : 3600) * 1000 };
        sawInvalidToken = false;
        if (lines.length === 0) lines.push(`${label(r, evidence.startedAtMs)}: first exchange, token valid ${typeof expiresIn === 'number' ? expiresIn : '?'} s`);
      } else if (errorCode(r)) lines.push(`${label(r, evidence.startedAtMs)}: exchange refused`);
    }
    const exchanges = evidence.requests.filter((r) => isExchange(r) && r.status === 200).length;
    lines.push(`${exchanges} successful exchange(s), ${bearerCalls} request(s) with a token`);
    if (bearerCalls === 0) return { verdict: 'not exercised', evidence: lines, failures };
    return { verdict: failures.length ? 'failed' : 'passed', evidence: lines, failures };
  },
};

/** Clock tolerance of the exchange's backoff (the log's times, not the client's). */
const BACKOFF_TOLERANCE_MS = 250;

export const exchangeBackoff: ClientRule = {
  id: 'token.exchange-backoff',
  title: 'A refused token exchange is retried at most 3 times, after 1 s, 2 s and 4 s',
  spec: 'spec 7',
  sentence: 'spec 7 "Retry rules": "token exchange retries up to 3 times on 429/5xx with exponential backoff (1s, 2s, 4s) plus jitter".',
  level: 'required',
  how: `After an exchange answered 429 or 5xx, the n-th exchange that follows in a row (each after a 429 or 5xx) must arrive at least 2^(n-1) s after the previous answer, less ${BACKOFF_TOLERANCE_MS} ms, and n is at most 3. Exercised when an exchange was answered 429 or 5xx.`,
  judge(evidence: Evidence): RuleOutcome {
    const lines: string[] = [];
    const failures: string[] = [];
    let exercised = false;
    let retry = 0;
    let previous: LoggedRequest | null = null;
    for (const r of evidence.requests.filter(isExchange)) {
      const refused = previous !== null && (previous.status === 429 || previous.status >= 500);
      if (refused && previous) {
        retry += 1;
        const waited = atMs(r) - answeredMs(previous);
        const wanted = 1000 * 2 ** (retry - 1);
        const line = `${label(r, evidence.startedAtMs)}: retry ${retry}, ${(waited / 1000).toFixed(2)} s after ${previous.id} answered ${previous.status}`;
        if (retry > 3) failures.push(`${line}: more than 3 retries`);
        else if (waited < wanted - BACKOFF_TOLERANCE_MS) failures.push(`${line}: sooner than ${wanted / 1000} s`);
        else lines.push(line);
      } else retry = 0;
      if (r.status === 429 || r.status >= 500) exercised = true;
      previous = r;
    }
    return { verdict: !exercised ? 'not exercised' : failures.length ? 'failed' : 'passed', evidence: lines, failures };
  },
};
