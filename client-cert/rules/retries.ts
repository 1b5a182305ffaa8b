// spec 7 "Retry rules": writes retried once on 5xx and never blindly on 4xx; on 429 the client waits
// `details.retryAfterSeconds`; uploads are not retried on 5xx without an `Idempotency-Key`.
import { answeredMs, atMs, header, isInvalidToken, isUpload, isWrite, label, repeats, retryAfterSeconds } from '../evidence.js';
import type { ClientRule, Evidence, LoggedRequest, RuleOutcome } from '../types.js';

const RETRY_RULES = 'spec 7 "Retry rules"';
/** How long after an answer the same request again counts as its retry (beyond: a new request). */
export const RETRY_WINDOW_S = 60;
/** Clock tolerance of the 429 wait: the log's times are taken inside the sandbox, not on the wire. */
export const WAIT_TOLERANCE_MS = 250;

const outcome = (lines: string[], failures: string[], exercised: boolean): RuleOutcome => ({
  verdict: !exercised ? 'not exercised' : failures.length ? 'failed' : 'passed',
  evidence: lines,
  failures,
});

/** The attempts of one logical request: identical requests each within RETRY_WINDOW_S of the previous answer. */
function chains(evidence: Evidence, keep: (r: LoggedRequest) => boolean): LoggedRequest[][] {
  const out: LoggedRequest[][] = [];
  for (const group of repeats(evidence.requests, keep)) {
    let chain: LoggedRequest[] = [];
    for (const r of group) {
      const previous = chain[chain.length - 1];
      if (previous && atMs(r) - answeredMs(previous) > RETRY_WINDOW_S * 1000) {
        out.push(chain);
        chain = [];
      }
      chain.push(r);
    }
    if (chain.length) out.push(chain);
  }
  return out;
}

export const waitsAfter429: ClientRule = {
  id: 'retry.waits-after-429',
  title: 'After a 429 the same write is not sent again before retryAfterSeconds',
  spec: 'spec 7',
  sentence: `${RETRY_RULES}: "enqueue and workflow writes ... on 429 wait \`details.retryAfterSeconds\`"; spec 8.2: "At a cap, enqueue returns 429 \`RATE_LIMITED\` with retry metadata."`,
  level: 'required',
  how: `For every write (every mutation but the token exchange, which backs off by its own rule) answered 429 with retry metadata (details.retryAfterSeconds, else Retry-After), the same write (method, path, query, body, Idempotency-Key) sent again must arrive at least that long after the 429 was answered, less ${WAIT_TOLERANCE_MS} ms of clock tolerance. Reads are not judged: the sentence names writes. Exercised when a write was answered such a 429.`,
  judge(evidence) {
    const lines: string[] = [];
    const failures: string[] = [];
    let exercised = false;
    for (const chain of chains(evidence, isWrite)) {
      chain.forEach((r, i) => {
        if (r.status !== 429) return;
        const wait = retryAfterSeconds(r);
        if (wait === null) return;
        exercised = true;
        const next = chain[i + 1];
        if (!next) return void lines.push(`${label(r, evidence.startedAtMs)}: asked ${wait} s; not sent again`);
        const waited = atMs(next) - answeredMs(r);
        const line = `${label(r, evidence.startedAtMs)}: asked ${wait} s; sent again after ${(waited / 1000).toFixed(2)} s (${next.id})`;
        if (waited < wait * 1000 - WAIT_TOLERANCE_MS) failures.push(line);
        else lines.push(line);
      });
    }
    return outcome(lines, failures, exercised);
  },
};

/** The attempts of a chain that count for retries: one answered 401 INVALID_TOKEN is repeated by spec 5.2. */
const counted = (chain: LoggedRequest[]) => chain.filter((r) => !isInvalidToken(r));

export const writeRetriedOnceAfter5xx: ClientRule = {
  id: 'retry.write-once-after-5xx',
  title: 'A write answered 5xx is retried at most once',
  spec: 'spec 7',
  sentence: `${RETRY_RULES}: "enqueue and workflow writes retry once on 5xx".`,
  level: 'required',
  how: `Writes (every mutation but the token exchange) are grouped into attempts of one request: identical method, path, query, body and Idempotency-Key, each within ${RETRY_WINDOW_S} s of the previous answer. An attempt after two 5xx in a row is a second retry. An attempt answered 401 INVALID_TOKEN does not count (spec 5.2 repeats it once). Exercised when a write was answered 5xx.`,
  judge(evidence) {
    const lines: string[] = [];
    const failures: string[] = [];
    let exercised = false;
    for (const chain of chains(evidence, isWrite)) {
      const tries = counted(chain);
      tries.forEach((r, i) => {
        if (r.status < 500) return;
        exercised = true;
        const retry = tries[i + 1];
        const previous = tries[i - 1];
        if (previous && previous.status >= 500 && retry) failures.push(`${label(retry, evidence.startedAtMs)}: a second retry after ${previous.id} and ${r.id} were answered ${previous.status} and ${r.status}`);
        else lines.push(`${label(r, evidence.startedAtMs)}: ${retry ? `retried (${retry.id} → ${retry.status})` : 'not retried'}`);
      });
    }
    return outcome(lines, failures, exercised);
  },
};

export const noBlindRetryAfter4xx: ClientRule = {
  id: 'retry.none-after-4xx',
  title: 'A write answered 4xx (other than 429) is not sent again unchanged',
  spec: 'spec 7',
  sentence: `${RETRY_RULES}: "enqueue and workflow writes retry once on 5xx, never blindly on 4xx".`,
  level: 'required',
  how: `A write answered 400-499 except 429 (waited out) and 401 INVALID_TOKEN (re-exchanged, spec 5.2) must not be followed by the identical write (method, path, query, body, Idempotency-Key) within ${RETRY_WINDOW_S} s: that is a blind retry; a changed request is not. Exercised when a write was answered such a 4xx.`,
  judge(evidence) {
    const lines: string[] = [];
    const failures: string[] = [];
    let exercised = false;
    for (const chain of chains(evidence, isWrite)) {
      chain.forEach((r, i) => {
        if (r.status < 400 || r.status >= 500 || r.status === 429 || isInvalidToken(r)) return;
        exercised = true;
        const again = chain[i + 1];
        if (again) failures.push(`${label(again, evidence.startedAtMs)}: the same write again after ${r.id} was answered ${r.status}`);
        else lines.push(`${label(r, evidence.startedAtMs)}: not sent again unchanged`);
      });
    }
    return outcome(lines, failures, exercised);
  },
};

export const noKeylessUploadRetry: ClientRule = {
  id: 'retry.upload-without-key',
  title: 'An upload without an Idempotency-Key answered 5xx is not retried',
  spec: 'spec 7',
  sentence: `${RETRY_RULES}: "uploads are not retried on 5xx without an \`Idempotency-Key\`".`,
  level: 'required',
  how: `An upload (multipart request) without an Idempotency-Key header answered 5xx must not be followed within ${RETRY_WINDOW_S} s by the same upload (same path and form as logged: fields, file name and size). Exercised when such an upload was answered 5xx.`,
  judge(evidence) {
    const lines: string[] = [];
    const failures: string[] = [];
    let exercised = false;
    for (const chain of chains(evidence, (r) => isUpload(r) && header(r, 'idempotency-key') === undefined)) {
      chain.forEach((r, i) => {
        if (r.status < 500) return;
        exercised = true;
        const again = chain[i + 1];
        if (again) failures.push(`${label(again, evidence.startedAtMs)}: the upload sent again without an Idempotency-Key after ${r.id} was answered ${r.status}`);
        else lines.push(`${label(r, evidence.startedAtMs)}: not retried`);
      });
    }
    return outcome(lines, failures, exercised);
  },
};

