// Freight audit, workflow C (spec 1, 2.6, 2.7, 3.3, 3.4, 4.5): the two lifecycles as fast-check models on
// the spec's tables, the claim creation rules, the findings list, paging through both lists and the
// disabled batch credit. The
// integrator's walk is journeys.c (conformance/journeys/). Every check writes in a fresh tenant of the control API when it is there.
//
//   support.ts              tenants with findings, an invoice file the audit flags, reads honouring 429
//   ../../models/finding.model.ts, submission.model.ts   spec 3.3 and 3.4 as data, and their judges
//   finding-model.ts        ship.finding-model
//   submission-model.ts     ship.submission-model
//   claim-rules.ts          ship.claim-rules
//   claim-eligibility.ts    ship.claim-eligibility
//   claim-records.ts        ship.claim-create-keeps, ship.finding-credit-recorded, ship.claim-packet-contents
//   status-counts.ts        ship.findings-status-counts
//   findings-list.ts        ship.findings-list-filters, ship.batch-credit-disabled
//   list-traversal.ts       ship.findings-traversal, ship.submissions-traversal
//   audit-filters.ts        ship.audit-filters (v1.2.0 artifact: joins the suites whose contract has the audit list)
import type { Check } from '../../harness/check.js';
import { shipClaimEligibility } from './claim-eligibility.js';
import { shipClaimCreateKeeps, shipClaimPacketContents, shipFindingCreditRecorded } from './claim-records.js';
import { shipClaimRules } from './claim-rules.js';
import { shipFindingModel } from './finding-model.js';
import { shipBatchCreditDisabled, shipFindingsListFilters } from './findings-list.js';
import { shipFindingsTraversal, shipSubmissionsTraversal } from './list-traversal.js';
import { shipFindingsStatusCounts } from './status-counts.js';
import { shipSubmissionModel } from './submission-model.js';

/** The ship checks, in the order they run. */
export const shipChecks: Check[] = [shipFindingModel, shipSubmissionModel, shipClaimRules, shipClaimEligibility, shipClaimCreateKeeps, shipFindingCreditRecorded, shipClaimPacketContents, shipFindingsListFilters, shipFindingsStatusCounts, shipFindingsTraversal, shipSubmissionsTraversal, shipBatchCreditDisabled];
