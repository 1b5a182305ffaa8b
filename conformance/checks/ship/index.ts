// Freight audit, workflow C (spec 1, 2.6, 2.7, 3.3, 3.4, 4.5): the journey of an integrator, the two
// lifecycles as fast-check models on the spec's tables, the claim creation rules, the findings list and the
// disabled batch credit. Every check writes in a fresh tenant of the control API when it is there.
//
//   support.ts              tenants with findings, an invoice file the audit flags, reads honouring 429
//   finding.table.ts        spec 3.3 as data;  submission.table.ts  spec 3.4 as data
//   journey-c.ts            ship.journey-c
//   finding-model.ts        ship.finding-model
//   submission-model.ts     ship.submission-model
//   claim-rules.ts          ship.claim-rules
//   findings-list.ts        ship.findings-list-filters, ship.batch-credit-disabled
import type { Check } from '../../harness/check.js';
import { shipClaimRules } from './claim-rules.js';
import { shipFindingModel } from './finding-model.js';
import { shipBatchCreditDisabled, shipFindingsListFilters } from './findings-list.js';
import { shipJourneyC } from './journey-c.js';
import { shipSubmissionModel } from './submission-model.js';

export { shipBatchCreditDisabled, shipClaimRules, shipFindingModel, shipFindingsListFilters, shipJourneyC, shipSubmissionModel };

/** The ship checks, in the order they run. */
export const shipChecks: Check[] = [shipJourneyC, shipFindingModel, shipSubmissionModel, shipClaimRules, shipFindingsListFilters, shipBatchCreditDisabled];
