// POST /api/trade/feeds/{sessionId}/apply (spec 3.2, 4.4): READY -> APPLIED, or the direct-apply shortcut
// from a PREVIEW_BLOCKED session without issues (the machine's guard). Refused with 409 when the session is
// in another state, while another apply runs, or when the reviewed snapshot is stale: made from a preview
// that is no longer the session's current one. Rows (only the five ApplyRow fields: the contract refuses
// any other with 400 naming it) must be SKUs of the session; each is written into the tenant catalog
// (origin: the row's, else the body's; destination: the row's, else the SKU's), and a SIMA screening of
// the applied SKUs is enqueued under the body's screeningAuthority (the session's `screeningJobId`).
import type { KernelDeps } from '../../kernel/deps.js';
import { actionNotAllowed, invalidRequest, notFound } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import { transition } from '../../kernel/machine.js';
import type { SimaDomain } from '../sima/index.js';
import { normalizeScreeningAuthority } from '../sima/index.js';
import type { FeedPreviewStore } from './feed-preview.store.js';
import type { FeedRowsStore } from './feed-rows.store.js';
import { feedSessionMover } from './feed-session.move.js';
import { factsOf, toFeedSession } from './feed-session.response.js';
import { feedSessionMachine } from './feed-session.machine.js';
import type { FeedSessionStore } from './feed-session.store.js';
import { TRADE_HOOKS, type RowToApply } from './trade.hooks.js';
import type { FeedSessionRecord } from './trade.types.js';

export function feedApplyRoutes(deps: KernelDeps, stores: { sessions: FeedSessionStore; rows: FeedRowsStore; previews: FeedPreviewStore }, peers: { sima: Pick<SimaDomain, 'catalog' | 'enqueueScreening'> }) {
  const { sessions, rows, previews } = stores;
  const moveSession = feedSessionMover(deps, sessions);

  /** The refusals of spec 4.4, decided on the session as read: state, apply in flight, stale snapshot. */
  const refuse = async (s: FeedSessionRecord) => {
    transition(feedSessionMachine, s.status, 'apply', factsOf(s), { sessionId: s.id }, deps.defects);
    if (s.applyInFlight) throw actionNotAllowed('an apply is already running for this session', { currentState: s.status, action: 'apply' });
    if (s.reviewedSnapshotId) {
      const review = await previews.getReview(s.reviewedSnapshotId);
      if (review && review.previewJobId !== s.currentPreviewJobId && deps.defects.at(TRADE_HOOKS.staleSnapshotRefused, true)) {
        throw actionNotAllowed(`reviewed snapshot ${s.reviewedSnapshotId} is stale relative to the current normalized artifact (preview ${s.currentPreviewJobId})`, {
          currentState: s.status,
          action: 'apply',
          reviewedSnapshotId: s.reviewedSnapshotId,
        });
      }
    }
  };

  return {
    async applyTradeFeedSession({ principal, params, body }) {
      const tenantId = principal.tenantId;
      const read = await sessions.get(tenantId, params.sessionId);
      if (!read) throw notFound('trade feed session');
      await refuse(read);
      const screeningAuthority = normalizeScreeningAuthority(body.screeningAuthority, deps.defects);
      const skus: RowToApply[] = [];
      for (const [i, row] of body.rows.entries()) {
        const sku = await rows.getSku(read.id, row.sku);
        if (!sku) throw invalidRequest(`rows[${i}].sku ${row.sku} is not a SKU of session ${read.id}`, `rows[${i}].sku`);
        skus.push({ row, sku });
      }
      // Claim the apply (compare-and-set): a second apply, or a preview, now sees it in flight.
      let claimed = false;
      await sessions.modify(read.id, (s) => {
        claimed = false;
        if (s.applyInFlight || s.status !== read.status) return undefined;
        claimed = true;
        return { ...s, applyInFlight: true };
      });
      if (!claimed) {
        const now = await sessions.get(tenantId, read.id);
        await refuse({ ...now!, applyInFlight: true });
      }
      const written = deps.defects.at(TRADE_HOOKS.rowsApplied, skus);
      try {
        const applied = await peers.sima.catalog.apply(
          tenantId,
          written.map(({ row, sku }) => ({ sku: row.sku, productName: row.name, hsCode: row.hsCode, countryOfOrigin: row.originCountry ?? body.originCountry, destinationCountry: row.destinationCountry ?? sku.destinationCountry })),
          `trade feed ${read.fileName} (session ${read.id})`,
        );
        const screening = await peers.sima.enqueueScreening({ tenantId, keyId: principal.keyId, skus: [...new Set(written.map(({ row }) => row.sku))], screeningAuthority }).catch((error: unknown) => {
          // A full SIMA queue (429) does not undo the apply: the rows are written; screen them later.
          deps.log.warn({ err: error, sessionId: read.id }, 'apply could not enqueue the screening of the applied SKUs');
          return null;
        });
        const now = deps.clocks.of(tenantId).nowIso();
        const done = await moveSession({
          tenantId,
          sessionId: read.id,
          action: 'apply',
          // The guard judges the session as it would be without this apply's claim.
          facts: (s) => factsOf({ ...s, applyInFlight: false }),
          changes: () => ({ applyInFlight: false, screeningJobId: screening?.id ?? null, appliedAt: now, updatedAt: now }),
        });
        deps.log.info({ sessionId: read.id, created: applied.created, updated: applied.updated }, 'trade feed applied to the catalog');
        return { status: 200, body: { ...toFeedSession(done), status: 'APPLIED' as const } };
      } catch (error) {
        await sessions.modify(read.id, (s) => (s.applyInFlight ? { ...s, applyInFlight: false } : undefined));
        throw error;
      }
    },
  } satisfies HandlerTable;
}
