// spec 6: what a receiver does with a delivery: check the `v1=` prefix and the signature, may reject old
// timestamps, answer any 2xx for success, and deduplicate by delivery id. Judged from the receiver's answers
// as the sandbox recorded them with each attempt, and from the requests a delivery caused.
import { attempts, is2xx, label, virtualMs } from '../evidence.js';
import type { ClientRule, DeliveryAttempt, Evidence, RuleOutcome } from '../types.js';

const SIGNATURE_SENTENCE =
  'spec 6: "Signature: message is the timestamp, a literal dot, and the raw JSON body; digest is the hex HMAC-SHA256 of the message keyed with the secret; header is `v1=` followed by the digest. Receivers should check the `v1=` prefix, compare with a constant-time comparison, and may reject timestamps more than 300 seconds old."';

const answer = (status: number | null | undefined) => (status === null || status === undefined ? 'no answer' : String(status));

/** A rule over the attempts that carried exactly one kind of chaos: the receiver must not answer 2xx. */
/** A webhook chaos member of the control contract. */
type Chaos = NonNullable<DeliveryAttempt['chaos']>[number];

function refusesAttempts(chaos: Chaos, id: string, title: string, level: ClientRule['level'], how: string): ClientRule {
  return {
    id,
    title,
    spec: 'spec 6',
    sentence: SIGNATURE_SENTENCE,
    level,
    how: `${how} Exercised when such an attempt reached the client.`,
    judge(evidence: Evidence): RuleOutcome {
      const lines: string[] = [];
      const failures: string[] = [];
      const altered = attempts(evidence).filter(({ attempt }) => attempt.chaos?.includes(chaos));
      for (const { delivery, attempt } of altered) {
        const line = `delivery ${delivery.id} attempt ${attempt.number} (${attempt.chaos?.join(', ')}): the receiver answered ${answer(attempt.statusCode)}`;
        if (is2xx(attempt.statusCode)) failures.push(line);
        else lines.push(line);
      }
      return { verdict: altered.length === 0 ? 'not exercised' : failures.length ? 'failed' : 'passed', evidence: lines, failures };
    },
  };
}

export const rejectsBadSignature = refusesAttempts(
  'badSignature',
  'webhook.rejects-bad-signature',
  'A delivery whose signature does not verify is refused (non-2xx)',
  'required',
  'Attempts signed over the body alone (the digest does not match timestamp.body) must get a non-2xx answer (or none).',
);

export const checksPrefix = refusesAttempts(
  'wrongPrefix',
  'webhook.checks-v1-prefix',
  'A signature header without the v1= prefix is refused (non-2xx)',
  'required',
  'Attempts whose X-SVC-Signature carries the right digest under `v0=` instead of `v1=` must get a non-2xx answer (or none): a receiver that strips any prefix accepts them.',
);

export const rejectsStaleTimestamp = refusesAttempts(
  'oldTimestamp',
  'webhook.rejects-stale-timestamp',
  'A delivery timestamped more than 300 s ago is refused (the spec says "may": a warning)',
  'recommended',
  'Attempts whose X-SVC-Timestamp is at least 300 s older than the receiver\'s clock, with a signature valid over it, should get a non-2xx answer. The spec says receivers "may" reject them: a 2xx is reported as a warning and does not fail the certificate.',
);

/** Follow-up requests closer than this to each other right after a duplicate mean it was processed twice. */
export const DOUBLE_PROCESSING_GAP_MS = 500;
/** How long after a duplicate pair its follow-ups are looked for (tenant clock). */
export const FOLLOW_UP_WINDOW_MS = 5000;

const mentions = (evidence: Evidence, jobId: string) =>
  evidence.requests.filter((r) => r.path.includes(jobId) || JSON.stringify(r.request.body ?? null).includes(jobId));

export const deduplicates: ClientRule = {
  id: 'webhook.deduplicates',
  title: 'A duplicate delivery is acknowledged (2xx) and not processed twice',
  spec: 'spec 6',
  sentence:
    'spec 6: "`id` (uuid, unique delivery id for deduplication; same on retries)"; delivery rule 1: "Any 2xx response is success; the body is ignored."',
  level: 'required',
  how: `An attempt sent twice (same delivery id, bytes and signature) whose first copy the receiver accepted (2xx): the second copy must get a 2xx too (it is a success already had), and within ${FOLLOW_UP_WINDOW_MS / 1000} s after it the requests naming the delivery's job must not come in a pair less than ${DOUBLE_PROCESSING_GAP_MS} ms apart (the same work done twice; a poller is at least 2 s apart). Exercised when such a pair reached the client.`,
  judge(evidence) {
    const lines: string[] = [];
    const failures: string[] = [];
    const pairs = attempts(evidence).filter(({ attempt }) => attempt.chaos?.includes('duplicate') && is2xx(attempt.statusCode) && !hasSignatureChaos(attempt));
    for (const { delivery, attempt } of pairs) {
      const start = Date.parse(attempt.at);
      const followUps = mentions(evidence, delivery.jobId).filter((r) => virtualMs(r) >= start && virtualMs(r) - start <= FOLLOW_UP_WINDOW_MS);
      const head = `delivery ${delivery.id} attempt ${attempt.number} sent twice: answered ${answer(attempt.statusCode)} then ${answer(attempt.duplicateStatusCode)}`;
      if (!is2xx(attempt.duplicateStatusCode)) failures.push(`${head}: the duplicate was not acknowledged`);
      const twice = followUps.find((r, i) => i > 0 && virtualMs(r) - virtualMs(followUps[i - 1]!) < DOUBLE_PROCESSING_GAP_MS);
      if (twice) failures.push(`${head}: processed twice: ${followUps.map((r) => label(r, evidence.startedAtMs)).join('; ')}`);
      if (is2xx(attempt.duplicateStatusCode) && !twice) lines.push(`${head}; ${followUps.length} follow-up request(s) naming job ${delivery.jobId}`);
    }
    return { verdict: pairs.length === 0 ? 'not exercised' : failures.length ? 'failed' : 'passed', evidence: lines, failures };
  },
};

const hasSignatureChaos = (attempt: DeliveryAttempt) => (['badSignature', 'wrongPrefix', 'oldTimestamp'] as const).some((c) => attempt.chaos?.includes(c));
