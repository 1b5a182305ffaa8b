// Trade feed sessions (spec 1 workflow B, 2.5, 3.2, 4.4): the lifecycle as a model, and the rules the spec
// makes certain about issues, uploads, snapshots and tenants. The integrator's walk is journeys.b
// (conformance/journeys/).
//
//   support.ts            feeds written for the run, the tenant, upload, settling, pages
//   lifecycle-model.ts    trade.feed-lifecycle-model
//   feed-issues.ts        trade.feed-issues
//   normalization.ts      trade.normalization-end-state, trade.row-overrides-defaults
//   upload-validation.ts  trade.upload-validation
//   stale-snapshot.ts     trade.stale-snapshot
//   review-not-reviewable.ts trade.review-needs-ended-preview (simulator profile)
//   acknowledgement.ts    trade.acknowledgement (simulator profile)
//   session-isolated.ts   trade.session-isolated
import type { Check } from '../../harness/check.js';
import { tradeAcknowledgement } from './acknowledgement.js';
import { tradeFeedIssues } from './feed-issues.js';
import { tradeFeedLifecycleModel } from './lifecycle-model.js';
import { tradeNormalizationEndState, tradeRowOverridesDefaults } from './normalization.js';
import { tradeReviewNeedsEndedPreview } from './review-not-reviewable.js';
import { tradeSessionIsolated } from './session-isolated.js';
import { tradeStaleSnapshot } from './stale-snapshot.js';
import { tradeUploadValidation } from './upload-validation.js';

/** The trade feed checks, in the order they run. */
export const tradeChecks: Check[] = [tradeFeedLifecycleModel, tradeFeedIssues, tradeNormalizationEndState, tradeRowOverridesDefaults, tradeUploadValidation, tradeStaleSnapshot, tradeReviewNeedsEndedPreview, tradeAcknowledgement, tradeSessionIsolated];
