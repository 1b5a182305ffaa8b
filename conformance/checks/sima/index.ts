// SIMA screening (spec 1 workflow A, 2.4, 4.2): the read endpoints (results, summary, evidence, report)
// held to what the spec makes certain; the integrator's walk is journeys.a (conformance/journeys/). Every
// check works in every profile it can: with writes it screens a tenant's whole catalog first (a fresh
// tenant of the control API in the simulator profile, else the primary tenant when it has no results yet);
// readonly reads what the tenant has, and skips when it has nothing.
//
//   support.ts          the tenant with results, reads honouring 429, the full results list, the filters
//   results-filters.ts  sima.results-filters-hold
//   results-cursor.ts   sima.results-cursor-walks-once
//   summary.ts          sima.summary-matches-results
//   exposure.ts         sima.exposure-believable
//   evidence.ts         sima.evidence-served, sima.evidence-isolated
//   evidence-current.ts sima.evidence-current-result
//   screenings.ts       a screening run to its end and the results it made (the two below)
//   listed-skus.ts      sima.listed-skus-screened
//   authority-default.ts sima.authority-defaults-to-ca
//   report.ts           sima.report-formats
//   report-rows.ts      sima.report-rows-match-results
//   review-rescreen.ts  sima.review-survives-rescreen (sandbox-defined, simulator profile)
import type { Check } from '../../harness/check.js';
import { simaAuthorityDefaultsToCa } from './authority-default.js';
import { simaEvidenceCurrentResult } from './evidence-current.js';
import { simaEvidenceIsolated, simaEvidenceServed } from './evidence.js';
import { simaExposureBelievable } from './exposure.js';
import { simaListedSkusScreened } from './listed-skus.js';
import { simaReportFormats } from './report.js';
import { simaReportRowsMatchResults } from './report-rows.js';
import { simaReviewSurvivesRescreen } from './review-rescreen.js';
import { simaResultsCursorWalksOnce } from './results-cursor.js';
import { simaResultsFiltersHold } from './results-filters.js';
import { simaSummaryMatchesResults } from './summary.js';

/** The SIMA checks, in the order they run. */
export const simaChecks: Check[] = [
  simaResultsFiltersHold,
  simaResultsCursorWalksOnce,
  simaSummaryMatchesResults,
  simaExposureBelievable,
  simaEvidenceServed,
  simaEvidenceIsolated,
  simaEvidenceCurrentResult,
  simaListedSkusScreened,
  simaAuthorityDefaultsToCa,
  simaReportFormats,
  simaReportRowsMatchResults,
  simaReviewSurvivesRescreen,
];
