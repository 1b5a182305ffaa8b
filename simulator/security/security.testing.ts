// Shared set-up of the security sweep (issue 15 item 6): a sandbox whose default tenant ("A") owns one
// resource of every kind a v1.3.0 path parameter names, and a second tenant ("B") with its own token.
import { expect } from 'vitest';
import type { KernelDeps } from '../kernel/deps.js';
import type { Store } from '../kernel/store/collection.js';
import type { TestSandbox } from '../testing/contract-client.js';
import { otherTenant, screen } from '../domains/sima/sima-results.testing.js';
import { allFindings, auditSamples, unthrottled } from '../domains/ship/ship.testing.js';
import { normalizedFeed } from '../domains/trade/trade.testing.js';

/** A SKU of the sandbox's seeded sample catalog (fixtures/catalog), screened by SIMA. */
const SCREENED_SKU = 'UDS-SOFABED-GRY-3S';
/** A description the sandbox classifier is unsure of: it opens a classification review. */
const AMBIGUOUS = { description: 'Upholstered lounge chair', sku: 'UDS-LNG-3301-GRY', originCountry: 'VN', destinationCountry: 'CA' };

/** Tenant A's resources, keyed by the name of the path parameter that addresses each in the contract. */
export type OwnedIds = Record<string, string>;

/** Creates one resource of every kind in the default tenant; answers their ids by path parameter name. */
export async function ownResourcesOfEveryKind(sandbox: TestSandbox): Promise<OwnedIds> {
  await unthrottled(sandbox);
  const shipJob = await auditSamples(sandbox);
  const [finding, bundled] = await allFindings(sandbox);
  expect((await sandbox.call('POST', `/api/ship/findings/${bundled.id}/dispute`, { body: {} })).status).toBe(200);
  const submission = await sandbox.call('POST', '/api/ship/claims/submissions', { body: { carrier: 'FEDEX', findingIds: [bundled.id] } });
  expect(submission.status, submission.text).toBe(201);

  const { sessionId } = await normalizedFeed(sandbox, 'feed-clean');
  const preview = await sandbox.call('POST', `/api/trade/feeds/${sessionId}/classify-preview`, { body: {} });
  expect(preview.status, preview.text).toBe(202);

  const classified = await sandbox.call('POST', '/api/trade/classify', { body: AMBIGUOUS });
  expect(classified.body.reviewId, classified.text).toEqual(expect.any(String));

  await screen(sandbox, { skus: [SCREENED_SKU] });
  return {
    id: shipJob.id,
    jobId: preview.body.previewJobId,
    sessionId,
    reviewId: classified.body.reviewId,
    findingId: finding.id,
    submissionId: submission.body.submission.id,
    sku: SCREENED_SKU,
  };
}

/** A second tenant (POST /_sim/tenants) with a bearer token of its own key. */
export const secondTenant = otherTenant;

/** How long a read of the slow store takes: longer than the spread of a burst of simultaneous local requests. */
const READ_LATENCY_MS = 25;

/**
 * Kernel deps whose store answers every read later, as a database across a network does. In memory, a
 * handler's read -> transition -> compare-and-set write runs without giving way, so simultaneous HTTP
 * requests never overlap inside it; with this latency they do, and only the compare-and-set keeps two
 * transitions from both winning.
 */
export function withSlowReads(deps: KernelDeps): KernelDeps {
  const store = deps.store;
  const later = () => new Promise<void>((resolve) => setTimeout(resolve, READ_LATENCY_MS));
  const slowStore: Store = Object.assign(Object.create(store) as Store, {
    collection: ((name: string, schema?: never) => {
      const inner = store.collection(name, schema);
      return Object.assign(Object.create(inner) as typeof inner, {
        get: async (id: string) => {
          const found = await inner.get(id);
          await later();
          return found;
        },
      });
    }) as Store['collection'],
  });
  return { ...deps, store: slowStore };
}
