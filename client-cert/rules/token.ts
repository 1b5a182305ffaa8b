// spec 5.2: the bearer token lives `expires_in` seconds and is re-exchanged on 401 INVALID_TOKEN: a client
// reuses it until then instead of exchanging the key per call.
import { errorCode, isExchange, isInvalidToken, label, virtualMs } from '../evidence.js';
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
