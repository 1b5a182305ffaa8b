// POST /api/sima/batch (spec 4.2): parse the body, refuse what cannot be screened, enqueue a
// `sima_validation` job (family sima, spec 8.2 caps), attach the webhook configuration (spec 6), answer the
// 202 receipt (spec 2.3). The idempotency middleware replays this receipt with `replayed: true`.
import type { ScreeningAuthority } from '../../../fixtures/catalog/sima-measures.js';
import { invalidRequest, invalidToken } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { JobsDomain } from '../jobs/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import type { RunPolicy, SimaBatchInput } from './sima-validation.processor.js';

/**
 * spec 4.2: omitted or blank means CA; anything given must normalize (trimmed, case-insensitive) to CA or
 * US, else 400 INVALID_REQUEST naming the field.
 */
export function normalizeScreeningAuthority(value: unknown): ScreeningAuthority {
  if (value === undefined || value === null) return 'CA';
  if (typeof value !== 'string') throw invalidRequest('screeningAuthority must be a string: CA or US', 'screeningAuthority');
  const normalized = value.trim().toUpperCase();
  if (normalized === '') return 'CA';
  if (normalized === 'CA' || normalized === 'US') return normalized;
  throw invalidRequest(`screeningAuthority must be CA or US (trimmed, case-insensitive), not ${JSON.stringify(value)}`, 'screeningAuthority');
}

function parseBatch(body: Record<string, unknown>): SimaBatchInput {
  const skus = body.skus ?? null;
  if (skus !== null && !(Array.isArray(skus) && skus.every((sku) => typeof sku === 'string'))) {
    throw invalidRequest('skus must be an array of SKU strings, or null for every catalog SKU', 'skus');
  }
  const runPolicy = body.runPolicy ?? 'always';
  if (runPolicy !== 'always' && runPolicy !== 'skip_exact_duplicates') {
    throw invalidRequest('runPolicy must be always or skip_exact_duplicates', 'runPolicy');
  }
  return { skus: skus as string[] | null, runPolicy: runPolicy as RunPolicy, screeningAuthority: normalizeScreeningAuthority(body.screeningAuthority) };
}

export function simaRoutes(peers: { jobs: JobsDomain; webhooks: Pick<WebhooksDomain, 'parseConfig' | 'attach'> }): HandlerTable {
  return {
    enqueueSimaBatch(request) {
      if (!request.principal) throw invalidToken();
      const { tenantId, keyId } = request.principal;
      const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
      const input = parseBatch(body);
      // Refuse a bad webhook target before anything is queued (contracts/README.md decision 10).
      const webhook = peers.webhooks.parseConfig(body);
      const job = peers.jobs.enqueue({ tenantId, keyId, type: 'sima_validation', family: 'sima', input });
      if (webhook) peers.webhooks.attach(job.id, tenantId, webhook);
      return { status: 202, body: { jobId: job.id, status: job.status, message: 'SIMA screening batch accepted', replayed: false } };
    },
  };
}
