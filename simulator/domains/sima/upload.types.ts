// Types of the two catalog-file uploads (spec 4.3): what their jobs store as input.
import type { ScreeningAuthority } from '../../../fixtures/catalog/sima-measures.js';
import type { CatalogAdapter } from './catalog-columns.js';
import type { StoredUpload } from './catalog-import.js';
import type { SimaBatchInput } from './sima.types.js';

export type { CatalogAdapter } from './catalog-columns.js';
export type { StoredUpload } from './catalog-import.js';

/** The `catalog_upload` job's input (POST /api/catalog/upload). */
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
