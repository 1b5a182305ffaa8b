// The defect catalogue as data: the single source of the defect ids (SIM_DEFECTS, GET/PUT /_sim/defects,
// the README table). Each id names one deliberate misbehaviour; the hook reading it sits where the
// behaviour lives (README "Defect injection"). Off unless switched on.

export interface DefectEntry {
  id: string;
  /** What part of the interface misbehaves. */
  area: 'jobs' | 'auth' | 'errors' | 'isolation' | 'pagination' | 'idempotency' | 'webhooks' | 'limits' | 'billing' | 'validation';
  /** What the simulator does wrong while the defect is on. */
  description: string;
}

export const DEFECT_CATALOGUE: readonly DefectEntry[] = [
  // What is sent (simulator/control/defects.middleware.ts)
  { id: 'job.missing-required-field', area: 'jobs', description: 'getJob and listJobs items lack `reconciliation`' },
  { id: 'job.wrong-status-enum', area: 'jobs', description: 'a COMPLETED job reads `status: "DONE"`' },
  { id: 'jobs.list-count-missing', area: 'jobs', description: 'listJobs drops `count`' },
  { id: 'auth.token-type-wrong', area: 'auth', description: 'token exchange answers `token_type: "bearer"`' },
  { id: 'status.undocumented', area: 'auth', description: 'token exchange answers 201 instead of 200' },
  { id: 'error.wrong-code', area: 'errors', description: "getJob's 404 carries code `JOB_NOT_FOUND`" },
  { id: 'error.lost-envelope', area: 'errors', description: 'every 4xx body is `{ "error": "<message>" }`' },
  { id: 'limits.missing-retry-after', area: 'limits', description: '429 answers lack the Retry-After header' },
  { id: 'limits.details-incomplete', area: 'limits', description: '429 details lack `keyId`' },
  { id: 'billing.wrong-content-type', area: 'billing', description: 'billing setup answers text/plain' },
  // What is accepted and done
  { id: 'validation.lenient-bounds', area: 'validation', description: 'query `limit`/`offset` bounds are not enforced (out of range is served)' },
  { id: 'validation.crash-on-bad-json', area: 'validation', description: 'a malformed JSON body gives 500 INTERNAL_ERROR' },
  { id: 'auth.expired-token-accepted', area: 'auth', description: 'token expiry is not checked' },
  { id: 'auth.revoked-key-tokens-valid', area: 'auth', description: 'tokens of a revoked key keep working' },
  { id: 'auth.missing-bearer-wrong-code', area: 'auth', description: 'a call without bearer gets 400 MISSING_API_KEY' },
  { id: 'auth.signature-not-verified', area: 'auth', description: 'a token with a tampered payload is accepted' },
  { id: 'auth.principal-not-enforced', area: 'auth', description: 'a dashboard token is accepted on billing setup' },
  { id: 'auth.unknown-key-wrong-code', area: 'auth', description: 'the exchange answers an unknown key with 403 INVALID_API_KEY' },
  { id: 'isolation.tenant-leak', area: 'isolation', description: "getJob serves another tenant's job" },
  { id: 'jobs.updated-at-frozen', area: 'jobs', description: 'updatedAt keeps its creation value through transitions' },
  { id: 'jobs.progress-not-100', area: 'jobs', description: 'a COMPLETED job reports progress 90' },
  { id: 'jobs.stuck-pending', area: 'jobs', description: 'the worker never starts jobs' },
  { id: 'jobs.completed-then-processing', area: 'jobs', description: 'a COMPLETED job reads PROCESSING again on the next read' },
  { id: 'jobs.list-filter-ignored', area: 'jobs', description: 'the `status` filter of listJobs is ignored' },
  { id: 'pagination.offset-gap', area: 'pagination', description: 'listJobs skips one record at each offset > 0' },
  { id: 'pagination.duplicate', area: 'pagination', description: 'listJobs repeats the last record of the previous page' },
  { id: 'idempotency.replay-creates-job', area: 'idempotency', description: 'a replay creates a second job (answers the new one)' },
  { id: 'idempotency.conflict-ignored', area: 'idempotency', description: 'the same key with another payload creates a job (202)' },
  { id: 'idempotency.replayed-flag-missing', area: 'idempotency', description: 'a replay answers `replayed: false`' },
  { id: 'idempotency.concurrent-duplicates', area: 'idempotency', description: 'concurrent requests with one key each create a job' },
  { id: 'webhooks.bad-signature', area: 'webhooks', description: 'the signature is HMAC over the body only (no timestamp)' },
  { id: 'webhooks.missing-signature', area: 'webhooks', description: 'no X-SVC-Signature header although a secret is set' },
  { id: 'webhooks.delivery-id-changes', area: 'webhooks', description: 'every attempt gets a new delivery id (header and body)' },
  { id: 'webhooks.wrong-event-header', area: 'webhooks', description: 'X-SVC-Event says `job.finished`' },
  { id: 'webhooks.retry-too-early', area: 'webhooks', description: 'retries come 10 s after a failure instead of 30 s / 2 min / 10 min' },
  { id: 'webhooks.event-filter-ignored', area: 'webhooks', description: '`webhookEvents` is ignored (every event is sent)' },
  { id: 'limits.rate-limit-off', area: 'limits', description: 'rate buckets never fill' },
  { id: 'limits.queue-cap-off', area: 'limits', description: 'queue-admission caps are not enforced' },
  { id: 'billing.new-customer-each-call', area: 'billing', description: 'every billing setup creates a new payment customer' },
];

export const DEFECT_IDS: string[] = DEFECT_CATALOGUE.map((d) => d.id);

export const DEFECTS_START = '<!-- defects:start -->';
export const DEFECTS_END = '<!-- defects:end -->';

/** The README's catalogue table, rendered from the data above (simulator/control/defects.test.ts). */
export function renderDefectTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    DEFECTS_START,
    '| defect id | area | what the simulator does wrong |',
    '|---|---|---|',
    ...DEFECT_CATALOGUE.map((d) => `| \`${d.id}\` | ${d.area} | ${cell(d.description)} |`),
    DEFECTS_END,
  ].join('\n');
}
