// The journeys' invariants as pure functions: each holds on reads that agree and names what differs on reads
// that do not. (The journeys themselves are proved against the simulator in journeys.test.ts.)
import { describe, expect, it } from 'vitest';
import { jobMatchesResults, reportMatchesResults, skusHaveResults, summaryMatchesResults, type ResultsRead } from './sima.invariants.js';
import { findingsKeepOwnWorkflow, shipmentFindingsListed, submissionFindingsExplained, submissionKeepsOwnStatus, submissionListsFindings } from './ship.invariants.js';
import { appliedRowsScreened, issueCountsMatchList, skusMatchFile } from './trade.invariants.js';

const results = (outcomes: string[], complete = true): ResultsRead => ({ items: outcomes.map((outcome, i) => ({ sku: `S${i}`, outcome })), total: outcomes.length, complete });
const rules = (breaches: Array<{ rule: string }>) => breaches.map((b) => b.rule);

describe('workflow A invariants', () => {
  const read = results(['AT_RISK', 'AT_RISK', 'NEEDS_REVIEW', 'CLEARED']);
  const job = { reconciliation: { skusScreened: 4 }, outcomes: { atRisk: 2, needsReview: 1, cleared: 1, falsePositive: 0 } };

  it('hold when the job, the summary and the report agree with the results', () => {
    expect(jobMatchesResults(job, read)).toEqual([]);
    expect(summaryMatchesResults({ totalSkus: 4, atRisk: 2, needsReview: 1 }, read)).toEqual([]);
    expect(reportMatchesResults({ outcomes: ['S0', 'S1', 'S2', 'S3'].map((sku) => ({ sku })) }, read)).toEqual([]);
    expect(skusHaveResults(['S0', 'S3'], read, 'r', 'why')).toEqual([]);
  });

  it('name a job whose counts are not the results', () => {
    expect(rules(jobMatchesResults({ ...job, reconciliation: { skusScreened: 5 } }, read))).toEqual(['journey-results-match-job']);
    expect(rules(jobMatchesResults({ ...job, outcomes: { ...job.outcomes, atRisk: 3 } }, read))).toEqual(['journey-outcomes-match-results']);
    expect(rules(jobMatchesResults({ outcomes: job.outcomes }, read))).toEqual(['job-reconciliation']);
  });

  it('compare only the total when a job counts false positives or the results were not all read', () => {
    expect(jobMatchesResults({ ...job, outcomes: { ...job.outcomes, atRisk: 1, falsePositive: 1 } }, read)).toEqual([]);
    expect(jobMatchesResults({ ...job, outcomes: { ...job.outcomes, atRisk: 9 } }, { ...read, complete: false })).toEqual([]);
  });

  it('name a stale summary and a report that leaves out or invents SKUs', () => {
    expect(summaryMatchesResults({ totalSkus: 0, atRisk: 0, needsReview: 0 }, read)[0].message).toMatch(/totalSkus 0 where the results list 4; atRisk 0 where 2/);
    expect(reportMatchesResults({ outcomes: [{ sku: 'S0' }, { sku: 'X' }] }, read)[0].message).toMatch(/leaves out 3 SKU\(s\).*names 1 SKU\(s\) without a result \(first X\)/);
    expect(rules(skusHaveResults(['S0', 'NEW'], read, 'journey-catalog-screened', 'why'))).toEqual(['journey-catalog-screened']);
  });

  it('do not judge report rows that do not name their SKU', () => {
    expect(reportMatchesResults({ outcomes: [{ item: 'S0' }] }, read)).toEqual([]);
  });
});

describe('workflow B invariants', () => {
  const rows = [{ sku: 'A', hsCode: '6109.10.00' }, { sku: 'B', hsCode: '' }];

  it('hold when the SKUs, the issue counts and the screened rows agree', () => {
    expect(skusMatchFile(rows, [{ sku: 'A', providedHs: '61091000' }, { sku: 'B', providedHs: null }])).toEqual([]);
    expect(issueCountsMatchList({ issueCount: 2, blockingIssueCount: 1 }, [{ isBlocking: true }, { isBlocking: false }])).toEqual([]);
    expect(appliedRowsScreened([{ sku: 'A', hsCode: '6109.10.00' }], [{ sku: 'A', currentHs: '61091000' }])).toEqual([]);
  });

  it('name a missing SKU, a dropped HS code, an issue count off by one and an applied row never screened', () => {
    expect(rules(skusMatchFile(rows, [{ sku: 'A', providedHs: null }]))).toEqual(['feed-provided-hs', 'feed-skus-complete']);
    expect(rules(issueCountsMatchList({ issueCount: 1, blockingIssueCount: 1 }, [{ isBlocking: true }, { isBlocking: false }]))).toEqual(['feed-issue-counts']);
    const screened = appliedRowsScreened([{ sku: 'A', hsCode: '6109.10.00' }, { sku: 'B', hsCode: '9401.61.10' }], [{ sku: 'A', currentHs: '9401.61.10' }]);
    expect(screened.map((b) => b.message)).toEqual([expect.stringMatching(/SKU A was screened with HS "9401.61.10"/), expect.stringMatching(/SKU B, applied to the catalog, has no result/)]);
  });
});

describe('workflow C invariants', () => {
  const states = new Map([['f1', 'DISPUTED'], ['f2', 'DISPUTED']]);

  it('hold while the findings and the submission each stay where their own workflow left them', () => {
    expect(findingsKeepOwnWorkflow(states, [{ id: 'f1', workflowStatus: 'DISPUTED' }, { id: 'f2', workflowStatus: 'DISPUTED' }, { id: 'f3', workflowStatus: 'OPEN' }], 'submit')).toEqual([]);
    expect(submissionKeepsOwnStatus({ status: 'CREDIT_CONFIRMED' }, 'CREDIT_CONFIRMED', 'credit')).toEqual([]);
    expect(submissionListsFindings({ findingIds: ['f2', 'f1'] }, ['f1', 'f2'])).toEqual([]);
    expect(submissionFindingsExplained({ findings: [{ workflowStatus: 'DISPUTED', claimEligibility: 'ELIGIBLE', claimBlockerReason: null, actionability: 'x', headline: 'h' }] })).toEqual([]);
    expect(shipmentFindingsListed([{ id: 'f1' }], [{ id: 'f1' }, { id: 'f2' }])).toEqual([]);
  });

  it('name a finding the submission moved, a submission the findings moved, and a shipment finding not listed', () => {
    const moved = findingsKeepOwnWorkflow(states, [{ id: 'f1', workflowStatus: 'SUBMITTED' }], "the submission's submit");
    expect(moved.map((b) => b.message)).toEqual([expect.stringMatching(/finding f1 is "SUBMITTED", not the DISPUTED/), expect.stringMatching(/finding f2 of the submission is no longer listed/)]);
    expect(rules(submissionKeepsOwnStatus({ status: 'SUBMITTED' }, 'CREDIT_CONFIRMED', 'credit'))).toEqual(['claim-keeps-own-status']);
    expect(rules(submissionKeepsOwnStatus(undefined, 'DRAFT', 'read'))).toEqual(['claim-keeps-own-status']);
    expect(rules(submissionListsFindings({ findingIds: ['f1'] }, ['f1', 'f2']))).toEqual(['submission-findings']);
    expect(rules(submissionFindingsExplained({ findings: [{ workflowStatus: 'DISPUTED' }] }))).toEqual(['submission-finding-explanations']);
    expect(rules(shipmentFindingsListed([{ id: 'f9' }], [{ id: 'f1' }]))).toEqual(['shipment-findings-listed']);
  });
});
