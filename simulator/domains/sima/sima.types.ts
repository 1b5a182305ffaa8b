// The SIMA domain's types (spec 2.4, 4.2).
import type { ScreeningAuthority } from '../../../fixtures/catalog/sima-measures.js';
import type { DomainModule } from '../domain.js';
import type { SimaResultItem } from './sima-result.store.js';
import type { SimaReviewAction } from './sima-review.machine.js';

export type { SimaResultItem, SimaWorkflowStatus } from './sima-result.store.js';
export type { SimaOutcome } from './screening.js';
export type { SimaReviewAction } from './sima-review.machine.js';

/** What the SIMA domain offers the composition root: its handlers, and the review dashboard action (spec 3.5) the control API calls. */
export interface SimaDomain extends DomainModule {
  /** Moves the SKU's current result through the review workflow: 404 without one, 409 for a refused move. */
  review(tenantId: string, sku: string, action: SimaReviewAction, note?: string | null): Promise<SimaResultItem>;
}

export type RunPolicy = 'always' | 'skip_exact_duplicates';

/** What the enqueue endpoint stores as the job's input. */
export interface SimaBatchInput {
  /** null: every SKU of the tenant catalog (spec 4.2). */
  skus: string[] | null;
  runPolicy: RunPolicy;
  screeningAuthority: ScreeningAuthority;
}
