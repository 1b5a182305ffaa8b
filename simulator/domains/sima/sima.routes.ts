// POST /api/sima/batch (spec 4.2): the body arrives validated and typed by the contract (skus, runPolicy);
// the route only normalizes what the contract cannot express (screeningAuthority), enqueues a
// `sima_validation` job (family sima, spec 8.2 caps), attaches the webhook configuration (spec 6) and answers
// the 202 receipt (spec 2.3). The idempotency middleware replays this receipt with `replayed: true`.
import type { ScreeningAuthority } from '#fixtures/catalog/sima-measures.js';
import { NO_DEFECTS, type Defects } from '../../kernel/defects.js';
import { invalidRequest } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { JobsDomain } from '../jobs/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import { SIMA_HOOKS } from './sima.hooks.js';
import type { SimaBatchInput } from './sima.types.js';

/**
 * spec 4.2: omitted or blank means CA; anything given must normalize (trimmed, case-insensitive) to CA or
 * US, else 400 INVALID_REQUEST naming the field. How the value is read and what a blank one means are
 * decided at SIMA_HOOKS points.
 */
export function normalizeScreeningAuthority(value: unknown, deviations: Pick<Defects, 'at'> = NO_DEFECTS): ScreeningAuthority {
  if (value === undefined || value === null) return deviations.at(SIMA_HOOKS.defaultScreeningAuthority, 'CA', { sent: 'omitted' });
  if (typeof value !== 'string') throw invalidRequest('screeningAuthority must be a string: CA or US', 'screeningAuthority');
  const normalized = deviations.at(SIMA_HOOKS.screeningAuthorityAsRead, value.trim().toUpperCase(), { sent: value });
  if (normalized.trim() === '') {
    if (!deviations.at(SIMA_HOOKS.blankScreeningAuthorityDefaults, true)) throw invalidRequest('screeningAuthority must be CA or US', 'screeningAuthority');
    return deviations.at(SIMA_HOOKS.defaultScreeningAuthority, 'CA', { sent: 'blank' });
  }
  if (normalized === 'CA' || normalized === 'US') return normalized;
  throw invalidRequest(`screeningAuthority must be CA or US (trimmed, case-insensitive), not ${JSON.stringify(value)}`, 'screeningAuthority');
}

export function simaRoutes(peers: { jobs: JobsDomain; webhooks: Pick<WebhooksDomain, 'parseConfig' | 'attach'> }, deviations: Pick<Defects, 'at'> = NO_DEFECTS) {
  return {
    async enqueueSimaBatch({ principal, body = {} }) {
      const input: SimaBatchInput = { skus: body.skus ?? null, runPolicy: body.runPolicy ?? 'always', screeningAuthority: normalizeScreeningAuthority(body.screeningAuthority, deviations) };
      // Refuse a bad webhook target before anything is queued (contracts/README.md decision 10).
      const webhook = peers.webhooks.parseConfig(body);
      const job = await peers.jobs.enqueue({ tenantId: principal.tenantId, keyId: principal.keyId, type: 'sima_validation', family: 'sima', input });
      if (webhook) await peers.webhooks.attach(job.id, principal.tenantId, webhook);
      return { status: 202, body: { jobId: job.id, status: job.status, message: 'SIMA screening batch accepted', replayed: false } };
    },
  } satisfies HandlerTable;
}
