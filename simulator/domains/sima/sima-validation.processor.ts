// The `sima_validation` job (spec 4.2, workflow A): screens the requested SKUs (or the whole catalog) of
// the tenant against the trade-remedy measures of the chosen authority, records one SIMA result per SKU,
// and reports the counts as the job's outcomes and reconciliation (spec 2.2). From POST /api/upload (spec
// 4.3) the input carries a file: its rows are written into the catalog first (catalog-import.ts), then
// exactly its SKUs are screened, and the row counts come from the file.
import { createHash } from 'node:crypto';
import type { ScreeningAuthority } from '#fixtures/catalog/sima-measures.js';
import { cooperative } from '../../kernel/cooperate.js';
import type { KernelDeps } from '../../kernel/deps.js';
import { round2 } from '../../kernel/numbers.js';
import type { JobOutcome, JobProcessor } from '../jobs/index.js';
import type { SimaBatchInput } from './sima.types.js';
import { importCatalogFile } from './catalog-import.js';
import type { SimaUploadInput } from './sima.types.js';
import type { CatalogItemRecord, CatalogStore } from './catalog.store.js';
import { screenItem } from './screening.js';
import { FAILING_SKU_PREFIX } from './sima.trigger-values.js';
import type { MeasuresConfig } from './measures-config.js';
import { newCuid, type SimaResultRecord, type SimaResultStore } from './sima-result.store.js';
import { SIMA_HOOKS } from './sima.hooks.js';

/** How many unknown SKUs the job result names (the rest are only counted). */
const UNKNOWN_SKU_SAMPLE = 20;
/** SKUs between store flushes: 100,000 results reach the journal as they are made, not in one batch at the end. */
const FLUSH_EVERY = 500;

/** Everything a screening reads: same fingerprint, same answer ("identical inputs", runPolicy). */
function fingerprintOf(item: CatalogItemRecord, authority: ScreeningAuthority, configVersion: string): string {
  const inputs = [authority, configVersion, item.sku, item.hsCode, item.countryOfOrigin, item.materialType, item.annualImportValue, item.currency, item.attributes?.restrictedComponents ?? null];
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}

export function simaValidationProcessor(deps: KernelDeps, catalog: CatalogStore, results: SimaResultStore, config: MeasuresConfig): JobProcessor {
  return async (job, context): Promise<JobOutcome> => {
    // The input is what the enqueue route stored, from a body the contract validated: not checked again.
    const input = job.input as SimaBatchInput & Partial<Pick<SimaUploadInput, 'file'>>;
    const tenantId = job.tenantId;
    const clock = deps.clocks.of(tenantId);
    await catalog.ensureSeeded(tenantId);
    // The version in force when the job starts; one published meanwhile makes its results stale (below).
    const configVersion = await config.versionOf(tenantId);
    // An upload's file is read with the default adapter's columns; it is the first half of the progress.
    const imported = input.file ? await importCatalogFile(deps, catalog, { tenantId, jobId: job.id, file: input.file, adapter: 'catalog-excel', progress: (p) => context.progress(p / 2) }) : null;
    const report = imported ? (p: number) => context.progress(50 + p / 2) : context.progress;
    // A SKU named twice is screened once.
    const listed = imported ? null : deps.defects.at(SIMA_HOOKS.batchSkus, input.skus);
    const requested = imported ? [...imported.skus] : listed === null ? (await catalog.all(tenantId)).map((item) => item.sku) : [...new Set(listed)];

    // Test value (simulator/TEST-VALUES.md): a SKU with the failing prefix makes the whole job fail.
    const failing = requested.find((sku) => sku.startsWith(FAILING_SKU_PREFIX));
    if (failing !== undefined) throw new Error(`SKU ${failing} is a sandbox test value: screening jobs that include it fail (prefix ${FAILING_SKU_PREFIX})`);

    const outcomes = { atRisk: 0, cleared: 0, needsReview: 0, falsePositive: 0 };
    const unknown: string[] = [];
    let found = 0;
    let screened = 0;
    let deduplicated = 0;
    let totalExposure = 0;
    const count = (r: Pick<SimaResultRecord, 'outcome' | 'exposureAnnual'>) => {
      screened += 1;
      if (r.outcome === 'AT_RISK') outcomes.atRisk += 1;
      else if (r.outcome === 'NEEDS_REVIEW') outcomes.needsReview += 1;
      else outcomes.cleared += 1;
      totalExposure += r.exposureAnnual ?? 0;
    };

    const giveWay = cooperative();
    for (const [index, sku] of requested.entries()) {
      await giveWay();
      if (index % 10 === 0) await report((index / Math.max(1, requested.length)) * 100);
      if (index > 0 && index % FLUSH_EVERY === 0) await deps.store.flush();
      const item = await catalog.get(tenantId, sku);
      if (!item) {
        unknown.push(sku);
        continue;
      }
      found += 1;
      const fingerprint = fingerprintOf(item, input.screeningAuthority, configVersion);
      const previous = await results.current(tenantId, sku);
      // A job run again after a restart keeps what it already recorded.
      if (previous?.jobId === job.id) {
        count(previous);
        continue;
      }
      if (input.runPolicy === 'skip_exact_duplicates' && previous?.fingerprint === fingerprint) {
        deduplicated += 1;
        continue;
      }
      const screening = screenItem(item, input.screeningAuthority);
      const now = clock.nowIso();
      // A reviewer's decision stands while the answer it was about stays the same.
      const keptWorkflow =
        previous && previous.workflowStatus && previous.workflowStatus !== 'OPEN' && previous.outcome === screening.outcome && previous.measureCode === screening.measureCode && deps.defects.at(SIMA_HOOKS.reviewKeptOnRescreen, true)
          ? previous.workflowStatus
          : null;
      const record = await results.record({
        id: newCuid({ clock, ids: deps.ids }),
        sku,
        outcome: screening.outcome,
        status: screening.outcome,
        workflowStatus: keptWorkflow ?? (screening.outcome === 'CLEARED' ? null : 'OPEN'),
        reasonCode: screening.reasonCode,
        measureCode: screening.measureCode,
        hsInScope: screening.hsInScope,
        currentHs: screening.currentHs,
        correctedHs: screening.correctedHs,
        countryOfOrigin: screening.countryOfOrigin,
        materialType: screening.materialType,
        confidence: screening.confidence,
        evidence: screening.evidence,
        analysisDate: now,
        simaConfigVersion: configVersion,
        needsReviewSince: screening.outcome !== 'NEEDS_REVIEW' ? null : previous?.outcome === 'NEEDS_REVIEW' && previous.needsReviewSince ? previous.needsReviewSince : now,
        isStale: false,
        exposureAnnual: deps.defects.at(SIMA_HOOKS.recordedExposure, screening.exposureAnnual),
        adRate: screening.adRate,
        cvdRate: screening.cvdRate,
        combinedRate: screening.combinedRate,
        caseNumber: screening.caseNumber,
        hasRestrictedComponents: screening.hasRestrictedComponents,
        missingAttributes: screening.missingAttributes,
        tenantId,
        jobId: job.id,
        screeningAuthority: input.screeningAuthority,
        fingerprint,
        supersededAt: null,
      });
      // A version published while this SKU was screened: its walk may have missed this result.
      const inForce = await config.versionOf(tenantId);
      if (inForce !== configVersion) await results.markOneStale(record.id, inForce);
      count(record);
    }

    return {
      result: {
        screeningAuthority: input.screeningAuthority,
        runPolicy: input.runPolicy,
        simaConfigVersion: configVersion,
        skusRequested: requested.length,
        skusScreened: screened,
        skusDeduplicated: deduplicated,
        skusNotApplicable: unknown.length,
        totalExposureAnnual: round2(totalExposure),
        unknownSkus: unknown.slice(0, UNKNOWN_SKU_SAMPLE),
        ...(imported ? { fileName: input.file!.fileName, skusCreated: imported.skusCreated, skusUpdated: imported.skusUpdated, ignoredColumns: imported.ignoredColumns, missingColumns: imported.missingColumns } : {}),
      },
      reconciliation: {
        rowsUploaded: imported?.rowsUploaded ?? null,
        rowsSkipped: imported?.rowsSkipped ?? null,
        // A file's duplicate rows; else only meaningful when duplicates are skipped (under `always` nothing is).
        rowsDeduplicated: imported ? imported.rowsDeduplicated : input.runPolicy === 'skip_exact_duplicates' ? deduplicated : null,
        skusFound: found,
        skusScreened: screened,
        skusNotApplicable: unknown.length,
      },
      ...(imported ? { skippedRows: imported.skippedRows } : {}),
      warnings: unknown.length || imported?.warnings ? { ...imported?.warnings, ...(unknown.length ? { unknownSkus: unknown.length } : {}) } : null,
      outcomes: deps.defects.at(SIMA_HOOKS.jobOutcomes, outcomes),
    };
  };
}
