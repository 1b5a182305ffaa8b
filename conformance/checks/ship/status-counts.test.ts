// Locating a findings page's status counts (spec 4.5: "finding page with status counts", field list not
// shown): the contract's map, another name, a list of entries, one level down; never the findings themselves.
import { describe, expect, it } from 'vitest';
import { locateStatusCounts } from './status-counts.js';

const finding = { id: 'f1', workflowStatus: 'OPEN', claimEligibility: 'INELIGIBLE', billedAmount: 18 };

describe('locateStatusCounts', () => {
  it('finds a map of workflow states to integers under any name', () => {
    expect(locateStatusCounts({ findings: [finding], statusCounts: { OPEN: 3, DISPUTED: 1 }, total: 4 })).toEqual({ where: 'statusCounts', counts: { OPEN: 3, DISPUTED: 1 } });
    expect(locateStatusCounts({ items: [finding], byStatus: { OPEN: 4 } })).toEqual({ where: 'byStatus', counts: { OPEN: 4 } });
  });

  it('finds a list of entries naming a state and a count, and counts one level down', () => {
    expect(locateStatusCounts({ findings: [finding], counts: [{ status: 'OPEN', count: 2 }, { status: 'DISMISSED', count: 1 }] })).toEqual({ where: 'counts', counts: { OPEN: 2, DISMISSED: 1 } });
    expect(locateStatusCounts({ findings: [finding], meta: { statusCounts: { CREDITED: 1 } } })).toEqual({ where: 'meta.statusCounts', counts: { CREDITED: 1 } });
  });

  it('takes neither the findings nor maps of other keys for counts', () => {
    expect(locateStatusCounts({ findings: [finding], total: 1, limit: 50, offset: 0, hasMore: false })).toBeNull();
    // A finding whose identifier has another name (spec 2.6: "Remaining fields of the finding record: not shown").
    const renamed = { findingId: 'f1', workflowStatus: 'OPEN', claimEligibility: 'NOT_ELIGIBLE', claimBlockerReason: 'workflow_open', actionability: 'needs_dispute', headline: 'Duplicate charge', billedAmount: 18 };
    expect(locateStatusCounts({ items: [renamed], total: 1 })).toBeNull();
    expect(locateStatusCounts({ items: [renamed], statusCounts: { OPEN: 1 } })).toEqual({ where: 'statusCounts', counts: { OPEN: 1 } });
    expect(locateStatusCounts({ findings: [finding], totals: { open: 1 } })).toBeNull();
  });
});
