// The `catalog_upload` job (spec 2.2, 4.3): reads the uploaded file with its adapter's columns and writes
// its rows into the tenant catalog. Reconciliation (spec 2.2): rowsUploaded (rows written), rowsSkipped
// (rows refused, by reason in skippedRows), rowsDeduplicated (later rows of a SKU already in the file),
// skusFound (distinct SKUs written); nothing is screened, so skusScreened, skusNotApplicable and the
// outcomes stay zero.
import type { KernelDeps } from '../../kernel/deps.js';
import type { JobOutcome, JobProcessor } from '../jobs/index.js';
import { importCatalogFile } from './catalog-import.js';
import type { CatalogStore } from './catalog.store.js';
import type { CatalogUploadInput } from './sima.types.js';

export function catalogUploadProcessor(deps: Pick<KernelDeps, 'store'>, catalog: CatalogStore): JobProcessor {
  return async (job, context): Promise<JobOutcome> => {
    // The input is what the upload route stored, from a form the contract validated.
    const input = job.input as CatalogUploadInput;
    const imported = await importCatalogFile(deps, catalog, { tenantId: job.tenantId, jobId: job.id, file: input.file, adapter: input.sourceAdapter, progress: context.progress });
    return {
      result: {
        fileName: input.file.fileName,
        sourceAdapter: input.sourceAdapter,
        screeningAuthority: input.screeningAuthority,
        ...(imported.sheet === null ? {} : { sheet: imported.sheet }),
        skusCreated: imported.skusCreated,
        skusUpdated: imported.skusUpdated,
        ignoredColumns: imported.ignoredColumns,
        missingColumns: imported.missingColumns,
      },
      reconciliation: {
        rowsUploaded: imported.rowsUploaded,
        rowsSkipped: imported.rowsSkipped,
        rowsDeduplicated: imported.rowsDeduplicated,
        skusFound: imported.skus.size,
        skusScreened: 0,
        skusNotApplicable: 0,
      },
      skippedRows: imported.skippedRows,
      warnings: imported.warnings,
    };
  };
}
