// Classify-preview and review (spec 4.4). classify-preview: the session must be READY (409 naming the
// state otherwise, or while an apply is in flight), then a preview job in the `preview` family (429
// preview_inflight at the per-tenant in-flight limit, spec 8.4); `previewJobId` equals `jobId`. review:
// the preview job must be the tenant's (404) and COMPLETED (409 otherwise); its rows must be SKUs of the
// session (400 naming the row); the snapshot is stored and pinned on the session for apply's staleness check.
import type { KernelDeps } from '../../kernel/deps.js';
import { actionNotAllowed, invalidRequest, notFound } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { JobsDomain } from '../jobs/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import { PREVIEW_VARIANT } from './feed-preview.processor.js';
import type { FeedPreviewStore } from './feed-preview.store.js';
import type { FeedRowsStore } from './feed-rows.store.js';
import { feedSessionMover } from './feed-session.move.js';
import type { FeedSessionStore } from './feed-session.store.js';
import type { FeedPreviewInput } from './trade.types.js';
import { TRADE_HOOKS } from './trade.hooks.js';

export function feedPreviewRoutes(
  deps: KernelDeps,
  stores: { sessions: FeedSessionStore; rows: FeedRowsStore; previews: FeedPreviewStore },
  peers: { jobs: JobsDomain; webhooks: Pick<WebhooksDomain, 'parseConfig' | 'attach'> },
) {
  const { sessions, rows, previews } = stores;
  const moveSession = feedSessionMover(deps, sessions);
  return {
    async startTradeFeedClassifyPreview({ principal, params, body }) {
      let job: Awaited<ReturnType<JobsDomain['enqueue']>> | undefined;
      let webhook: ReturnType<typeof peers.webhooks.parseConfig> | undefined;
      // The table says from which states a preview starts (it leaves the state as it is); the preview job is
      // enqueued once the move is allowed and pinned on the session by the move's compare-and-set save.
      await moveSession({
        tenantId: principal.tenantId,
        sessionId: params.sessionId,
        action: 'classify_preview',
        async changes(s) {
          if (s.applyInFlight) throw actionNotAllowed('an apply is already running for this session', { currentState: s.status, action: 'classify_preview' });
          // A bad webhook target is refused before anything is queued.
          webhook = peers.webhooks.parseConfig(body ?? {});
          const input: FeedPreviewInput = { sessionId: s.id };
          // After a lost race the move is decided again on the session as read then; the job is enqueued once.
          job ??= await peers.jobs.enqueue({ tenantId: principal.tenantId, keyId: principal.keyId, type: 'catalog_upload', variant: PREVIEW_VARIANT, family: 'preview', fileName: s.fileName, input });
          return { previewInFlight: job.id };
        },
      });
      if (webhook) await peers.webhooks.attach(job!.id, principal.tenantId, webhook);
      return { status: 202, body: { jobId: job!.id, previewJobId: job!.id } };
    },

    async reviewTradeFeedClassifyPreview({ principal, params, body }) {
      const job = await peers.jobs.get(principal.tenantId, params.jobId);
      if (!job || job.variant !== PREVIEW_VARIANT) throw notFound('classify-preview job');
      if (!deps.defects.at(TRADE_HOOKS.previewReviewable, job.status === 'COMPLETED', { status: job.status })) throw actionNotAllowed(`preview job ${job.id} is ${job.status} and cannot be reviewed`, { currentState: job.status, action: 'review' });
      const { sessionId } = job.input as FeedPreviewInput;
      const session = await sessions.get(principal.tenantId, sessionId);
      if (!session) throw notFound('trade feed session');
      if (session.status === 'APPLIED') throw actionNotAllowed(`session ${session.id} is APPLIED: its previews can no longer be reviewed`, { currentState: 'APPLIED', action: 'review' });
      for (const [i, row] of body.rows.entries()) {
        if (!(await rows.getSku(session.id, row.sku))) throw invalidRequest(`rows[${i}].sku ${row.sku} is not a SKU of session ${session.id}`, `rows[${i}].sku`);
      }
      const snapshotId = `snap_${deps.ids.uuid().replace(/-/g, '').slice(0, 12)}`;
      const reviewedAt = deps.clocks.of(principal.tenantId).nowIso();
      const toggles = body.toggles ?? {};
      await previews.putReview({ id: snapshotId, tenantId: principal.tenantId, sessionId: session.id, previewJobId: job.id, rows: body.rows, toggles, reviewedAt });
      await sessions.modify(session.id, (s) => ({ ...s, reviewedSnapshotId: snapshotId, updatedAt: reviewedAt }));
      return { status: 200, body: { previewJobId: job.id, sessionId: session.id, snapshotId, reviewedAt, rowCount: body.rows.length, rows: body.rows, toggles } };
    },
  } satisfies HandlerTable;
}
