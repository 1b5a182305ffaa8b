// GET /api/sima/results/{sku}/evidence (spec 2.4, 4.2): why the SKU's current result says what it says, in the
// eight keys the contract requires. The spec names the keys only ("free-form objects"); their contents are
// the sandbox's: what the screening read (screening.ts), the measure it weighed (fixtures/catalog), the
// confidence each kind of answer carries, the exposure arithmetic, every screening of the SKU, and who did
// what to it (the job that recorded each result, the review moves of sima-review.machine.ts).
import { SIMA_MEASURES } from '#fixtures/catalog/sima-measures.js';
import type { CatalogItemRecord } from './catalog.store.js';
import { SCREENING_CONFIDENCE } from './screening.js';
import { exposureOf } from './sima-result.response.js';
import { toSimaResultItem, type SimaResultRecord } from './sima-result.store.js';

const measureOf = (record: SimaResultRecord) => SIMA_MEASURES.find((m) => m.authority === record.screeningAuthority && m.measureCode === record.measureCode);

function auditTrail(history: readonly SimaResultRecord[]) {
  const events = history.flatMap((r) => {
    const initial = r.reviews?.[0]?.from ?? r.workflowStatus;
    return [
      { at: r.analysisDate, actor: `sima_validation job ${r.jobId}`, action: 'RESULT_RECORDED', resultId: r.id, outcome: r.outcome, workflowStatus: initial },
      ...(r.reviews ?? []).map((e) => ({ at: e.at, actor: 'reviewer (dashboard action)', action: 'WORKFLOW_CHANGED', resultId: r.id, review: e.action, from: e.from, to: e.to, note: e.note })),
    ];
  });
  // Stable: a result's own events keep their order when times are equal.
  return events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** The evidence body; `history` is every screening of the SKU oldest first, `current` the last of them. */
export function simaEvidence(current: SimaResultRecord, history: readonly SimaResultRecord[], catalog: CatalogItemRecord | undefined) {
  const measure = measureOf(current);
  const evidence = current.evidence ?? {};
  // The import value the screening read (AT_RISK), else the catalog's current one.
  const exposure = exposureOf(current, { annualImportValue: catalog?.annualImportValue ?? null, currency: catalog?.currency ?? null });
  return {
    result: toSimaResultItem(current),
    classification: {
      currentHs: current.currentHs,
      correctedHs: current.correctedHs,
      hsUsed: current.correctedHs ?? current.currentHs,
      hsInScope: current.hsInScope,
      matchedTariffItem: typeof evidence.matchedTariffItem === 'string' ? evidence.matchedTariffItem : null,
      source: 'catalog',
    },
    attributes: {
      productName: catalog?.productName ?? null,
      countryOfOrigin: current.countryOfOrigin,
      materialType: current.materialType,
      annualImportValue: exposure.annualImportValue,
      currency: exposure.currency,
      missingAttributes: current.missingAttributes,
    },
    measureApplicability: {
      authority: current.screeningAuthority,
      measureCode: current.measureCode,
      caseNumber: current.caseNumber,
      product: measure?.product ?? null,
      countries: measure?.countries ?? [],
      tariffItems: measure?.tariffItems ?? [],
      stage: measure?.stage ?? null,
      source: measure?.source ?? null,
      asOf: measure?.asOf ?? null,
      applies: current.outcome === 'AT_RISK',
      reasonCode: current.reasonCode,
      candidateMeasures: Array.isArray(evidence.candidateMeasures) ? evidence.candidateMeasures : measure ? [measure.measureCode] : [],
      configVersion: current.simaConfigVersion,
    },
    thresholds: {
      // Confidence the engine gives each kind of answer (screening.ts); this result's is `confidence`.
      confidenceByAnswer: { ...SCREENING_CONFIDENCE },
      confidence: current.confidence,
      adRate: current.adRate,
      cvdRate: current.cvdRate,
      combinedRate: current.combinedRate,
      rateBasis: typeof evidence.rateBasis === 'string' ? evidence.rateBasis : null,
    },
    exposure: { ...exposure, ratesAsOf: measure?.asOf ?? null },
    history: history.map((r) => ({
      resultId: r.id,
      analysisDate: r.analysisDate,
      outcome: r.outcome,
      measureCode: r.measureCode,
      caseNumber: r.caseNumber,
      exposureAnnual: r.exposureAnnual,
      jobId: r.jobId,
      screeningAuthority: r.screeningAuthority,
      simaConfigVersion: r.simaConfigVersion,
      current: r.supersededAt === null,
    })),
    auditTrail: auditTrail(history),
  };
}
