// The SIMA domain's types (spec 2.4, 4.2, 4.3).
import type { Schema } from '../../../contracts/generated/index.js';
import type { ScreeningAuthority } from '#fixtures/catalog/sima-measures.js';
import type { CatalogAdapter } from './catalog-columns.js';
import type { StoredUpload } from '../../kernel/uploads/uploaded-file.js';
import type { DomainModule } from '../domain.js';
import type { JobRecord } from '../jobs/index.js';
import type { CatalogApply } from './catalog-apply.js';
import type { PublishedMeasuresConfig } from './measures-config.js';
import type { SimaResultItem } from './sima-result.store.js';
import type { SimaReviewAction } from './sima-review.machine.js';

export type { SimaResultItem } from './sima-result.store.js';
export type { ScreenedItem } from './screening.js';

/** What the SIMA domain offers the composition root: its handlers, and the dashboard actions the control API calls (review, spec 3.5; measures config, spec 2.4). */
export interface SimaDomain extends DomainModule {
  /** Moves the SKU's current result through the review workflow: 404 without one, 409 for a refused move. */
  review(tenantId: string, sku: string, action: SimaReviewAction, note?: string | null): Promise<SimaResultItem>;
  /** Publishes a new measures config version for the tenant (sandbox-defined): its older current results become stale. */
  publishMeasuresConfig(tenantId: string, request: { version?: string; note?: string | null }): Promise<PublishedMeasuresConfig>;
  /** The tenant catalog as other domains write it (trade feed apply, classification apply) and read it. */
  catalog: CatalogApply;
  /** Enqueues a sima_validation job for these SKUs (spec 4.2 batch semantics; sima family caps apply). */
  enqueueScreening(request: { tenantId: string; keyId: string | null; skus: readonly string[]; screeningAuthority: ScreeningAuthority; runPolicy?: RunPolicy }): Promise<JobRecord>;
}

type RunPolicy = Schema<'RunPolicy'>;

/** What the enqueue endpoint stores as the job's input. */
export interface SimaBatchInput {
  /** null: every SKU of the tenant catalog (spec 4.2). */
  skus: string[] | null;
  runPolicy: RunPolicy;
  screeningAuthority: ScreeningAuthority;
}

/** The `catalog_upload` job's input (POST /api/catalog/upload, spec 4.3). */
export interface CatalogUploadInput {
  file: StoredUpload;
  sourceAdapter: CatalogAdapter;
  /** Accepted and normalized like the batch's (spec 4.3); recorded in the result, no screening runs. */
  screeningAuthority: ScreeningAuthority;
}

/** The `sima_validation` job's input from POST /api/upload: a batch whose SKUs are the file's (skus null until read). */
export interface SimaUploadInput extends SimaBatchInput {
  file: StoredUpload;
}
