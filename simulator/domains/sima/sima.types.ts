// The SIMA domain's types (spec 2.4, 4.2).
import type { ScreeningAuthority } from '../../../fixtures/catalog/sima-measures.js';

export type { SimaResultItem, SimaWorkflowStatus } from './sima-result.store.js';
export type { SimaOutcome } from './screening.js';

export type RunPolicy = 'always' | 'skip_exact_duplicates';

/** What the enqueue endpoint stores as the job's input. */
export interface SimaBatchInput {
  /** null: every SKU of the tenant catalog (spec 4.2). */
  skus: string[] | null;
  runPolicy: RunPolicy;
  screeningAuthority: ScreeningAuthority;
}
