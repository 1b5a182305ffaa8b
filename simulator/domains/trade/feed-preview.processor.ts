// The classify-preview job (job type catalog_upload, variant trade_feed_preview; spec 4.4): proposes an HS
// code for every SKU of the session that has no providedHs, with the classifier of the advanced trade path
// (a confidence, alternatives, a rationale). When it ends, its output is the session's current normalized
// artifact: a snapshot reviewed from an earlier preview is then stale for apply.
import { cooperative } from '../../kernel/cooperate.js';
import type { KernelDeps } from '../../kernel/deps.js';
import type { JobOutcome, JobProcessor } from '../jobs/index.js';
import type { FeedPreviewStore } from './feed-preview.store.js';
import type { FeedRowsStore } from './feed-rows.store.js';
import type { FeedSessionStore } from './feed-session.store.js';
import type { FeedPreviewInput, ProductClassifier } from './trade.types.js';

export const PREVIEW_VARIANT = 'trade_feed_preview';
/** At or above this confidence a proposal is "high confidence" (the review's acceptHighConfidence toggle). */
export const HIGH_CONFIDENCE = 0.8;
const PAGE = 500;

export function feedPreviewProcessor(deps: KernelDeps, sessions: FeedSessionStore, rows: FeedRowsStore, previews: FeedPreviewStore, classify: ProductClassifier): JobProcessor {
  return async (job, context): Promise<JobOutcome> => {
    const { sessionId } = job.input as FeedPreviewInput;
    const session = await sessions.get(job.tenantId, sessionId);
    if (!session) throw new Error(`trade feed session ${sessionId} no longer exists`);
    const counts = { proposed: 0, highConfidence: 0, lowConfidence: 0, unclassifiable: 0 };
    const giveWay = cooperative();
    let after: string | null = null;
    do {
      const page = await rows.unclassifiedPage(sessionId, PAGE, after);
      for (const sku of page.items) {
        await giveWay();
        const proposal = classify({ sku: sku.sku, productName: sku.productName, attributes: sku.attributes, originCountry: sku.originCountry });
        await previews.putProposal({ id: `${job.id}/${sku.sku}`, jobId: job.id, sessionId, rowNumber: sku.rowNumber, sku: sku.sku, productName: sku.productName, ...proposal });
        counts.proposed += 1;
        if (proposal.hsCode === null) counts.unclassifiable += 1;
        else if (proposal.confidence >= HIGH_CONFIDENCE) counts.highConfidence += 1;
        else counts.lowConfidence += 1;
      }
      await context.progress(session.unclassifiedCount ? (counts.proposed / session.unclassifiedCount) * 100 : 100);
      after = page.nextCursor;
    } while (after);
    // This preview's output is now the session's artifact (the newest preview to end wins).
    await sessions.modify(sessionId, (s) => ({ ...s, currentPreviewJobId: job.id, previewInFlight: s.previewInFlight === job.id ? null : s.previewInFlight, updatedAt: deps.clocks.of(s.tenantId).nowIso() }));
    return {
      result: { sessionId, previewJobId: job.id, skusProposed: counts.proposed, highConfidence: counts.highConfidence, lowConfidence: counts.lowConfidence, unclassifiable: counts.unclassifiable, highConfidenceThreshold: HIGH_CONFIDENCE },
      reconciliation: { skusFound: counts.proposed },
    };
  };
}
