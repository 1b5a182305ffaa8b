// The cross-operation invariants of workflow C (spec 1 C, 2.6, 2.7, 3.3, 3.4, 4.5), as pure functions of what
// the journey read: a claim's findings keep the states their own workflow gave them whatever the submission
// does, a submission keeps its state whatever its findings do, and a shipment's findings are the tenant's.
import type { Breach } from './steps.js';

type Item = Record<string, unknown>;

/**
 * spec 3.4: "the finding workflow and the submission workflow are independent": after `event` (a submission
 * move), each finding is still in the state its own moves left it in (`expected`, finding id -> state).
 */
export function findingsKeepOwnWorkflow(expected: Map<string, string>, listed: Item[], event: string): Breach[] {
  const breaches: Breach[] = [];
  for (const [id, state] of expected) {
    const finding = listed.find((f) => f.id === id);
    if (!finding) breaches.push({ rule: 'claim-findings-keep-workflow', message: `after ${event}, finding ${id} of the submission is no longer listed (spec 4.5)` });
    else if (finding.workflowStatus !== state) breaches.push({ rule: 'claim-findings-keep-workflow', message: `after ${event}, finding ${id} is ${JSON.stringify(finding.workflowStatus)}, not the ${state} its own workflow left it in (spec 3.4: the finding and submission workflows are independent)` });
  }
  return breaches;
}

/** spec 3.4: moving the findings (their own workflow, 3.3) leaves the submission's status where it was. */
export function submissionKeepsOwnStatus(submission: Item | undefined, status: string, event: string): Breach[] {
  return submission?.status === status ? [] : [{ rule: 'claim-keeps-own-status', message: `after ${event}, the submission is ${JSON.stringify(submission?.status)}, not the ${status} its own workflow left it in (spec 3.4)` }];
}

/** spec 2.7: a new submission lists the finding ids it was created with. */
export function submissionListsFindings(submission: Item, ids: string[]): Breach[] {
  const listed = Array.isArray(submission.findingIds) ? (submission.findingIds as unknown[]) : [];
  const missing = ids.filter((id) => !listed.includes(id));
  return missing.length ? [{ rule: 'submission-findings', message: `the new submission's findingIds ${JSON.stringify(submission.findingIds)} leave out ${missing.join(', ')} (spec 2.7)` }] : [];
}

/** spec 2.7: each finding inside a submission carries the explanation fields of the finding record. */
const EXPLANATION = ['workflowStatus', 'claimEligibility', 'claimBlockerReason', 'actionability', 'headline'];
export function submissionFindingsExplained(submission: Item): Breach[] {
  if (!Array.isArray(submission.findings)) return [];
  const lacking = (submission.findings as Item[]).filter((f) => EXPLANATION.some((k) => !(k in f)));
  return lacking.length ? [{ rule: 'submission-finding-explanations', message: `${lacking.length} finding(s) inside the submission lack explanation fields ${EXPLANATION.join(', ')} (spec 2.7)` }] : [];
}

/** spec 4.5: a shipment's findings (shipment detail) are findings of the tenant's findings list. */
export function shipmentFindingsListed(detail: Item[], listed: Item[]): Breach[] {
  const ids = new Set(listed.map((f) => f.id));
  const stray = detail.filter((f) => !ids.has(f.id));
  return stray.length ? [{ rule: 'shipment-findings-listed', message: `${stray.length} finding(s) of the shipment detail are not in the tenant's findings list (first ${String(stray[0].id)}; spec 4.5)` }] : [];
}
