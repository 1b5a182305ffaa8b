// POST /api/trade/feeds/upload (spec 4.4): the multipart form arrives validated by the contract (`file`,
// `originCountry`, `defaultDestinationCountry` required, two upper-case letters). Here: the countries
// against the ISO 3166-1 list (400 naming the field), the file at the door (415), then the session
// (UPLOADED) and its normalization job, both created before answering 202 (spec 3.2). The idempotency
// middleware (spec 8.5) replays the receipt for the same form and file with `replayed: true`.
import { COUNTRY_CODES } from '#fixtures/trade/countries.js';
import type { KernelDeps } from '../../kernel/deps.js';
import { invalidRequest } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import { acceptUploadedFile, removeUpload, storeUpload } from '../../kernel/uploads/uploaded-file.js';
import type { JobsDomain } from '../jobs/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import type { FeedSessionStore } from './feed-session.store.js';
import { TRADE_HOOKS } from './trade.hooks.js';
import type { FeedNormalizeInput, FeedSessionRecord } from './trade.types.js';

export const NORMALIZE_VARIANT = 'trade_feed_normalize';

export function feedUploadRoutes(deps: KernelDeps, sessions: FeedSessionStore, peers: { jobs: JobsDomain; webhooks: Pick<WebhooksDomain, 'parseConfig' | 'attach'> }) {
  return {
    async uploadTradeFeed(request) {
      const { principal, body } = request;
      for (const field of ['originCountry', 'defaultDestinationCountry'] as const) {
        if (!COUNTRY_CODES.has(body[field]) && deps.defects.at(TRADE_HOOKS.uploadCountryChecked, true)) {
          throw invalidRequest(`${field} ${body[field]} is not an ISO 3166-1 alpha-2 country code`, field);
        }
      }
      const webhook = peers.webhooks.parseConfig(body);
      const { file, format } = await acceptUploadedFile(request);
      const upload = await storeUpload(deps, file, format);
      const now = deps.clocks.of(principal.tenantId).nowIso();
      const session: FeedSessionRecord = {
        id: deps.ids.uuid(),
        tenantId: principal.tenantId,
        status: 'UPLOADED',
        fileName: upload.fileName,
        jobId: null,
        originCountry: body.originCountry,
        defaultDestinationCountry: body.defaultDestinationCountry,
        normalizationProgress: 0,
        failureReason: null,
        skuCount: 0,
        issueCount: 0,
        blockingIssueCount: 0,
        openIssueCount: 0,
        unclassifiedCount: 0,
        currentPreviewJobId: null,
        previewInFlight: null,
        reviewedSnapshotId: null,
        applyInFlight: false,
        screeningJobId: null,
        createdAt: now,
        updatedAt: now,
        appliedAt: null,
      };
      await sessions.create(session);
      let jobId: string;
      try {
        const input: FeedNormalizeInput = { sessionId: session.id, file: upload };
        jobId = (await peers.jobs.enqueue({ tenantId: principal.tenantId, keyId: principal.keyId, type: 'catalog_upload', variant: NORMALIZE_VARIANT, family: 'upload', fileName: upload.fileName, input })).id;
      } catch (error) {
        // Refused at a queue cap (429): neither the session nor the file stays.
        await sessions.delete(session.id);
        await removeUpload(upload);
        throw error;
      }
      await sessions.modify(session.id, (s) => ({ ...s, jobId }));
      if (webhook) await peers.webhooks.attach(jobId, principal.tenantId, webhook);
      return { status: 202, body: { sessionId: session.id, jobId, status: 'UPLOADED' as const, fileName: upload.fileName, replayed: false } };
    },
  } satisfies HandlerTable;
}
