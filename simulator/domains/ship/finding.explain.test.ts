// What a finding explains, over every workflow state, every blocker of the charge and a link to an active
// submission: claimEligibility reads ELIGIBLE exactly when spec 4.5 rule 1 lets the finding be bundled, the
// blocker reason is null exactly then, and actionability never says claimable of a finding that is not.
import { describe, expect, it } from 'vitest';
import { findingMachine } from './finding.machine.js';
import { CLAIMABLE_STATES, explainFinding, type ExplainContext } from './finding.explain.js';
import type { FindingRecord } from './ship.types.js';

const TODAY = '2026-11-27';
type Charge = 'clear' | 'nothing-to-recover' | 'carrier-blocked' | 'window-closed';
const CHARGES: Charge[] = ['clear', 'nothing-to-recover', 'carrier-blocked', 'window-closed'];

function explain(workflowStatus: FindingRecord['workflowStatus'], charge: Charge, linked: boolean, needsEvidence = false) {
  const finding = { carrier: 'FEDEX' as const, workflowStatus, needsEvidence, recoverableAmount: charge === 'nothing-to-recover' ? 0 : 12.5, disputeDeadline: charge === 'window-closed' ? '2026-11-01' : '2027-03-01' };
  const context: ExplainContext = { policy: charge === 'carrier-blocked' ? 'manual_import_only' : null, today: TODAY, activeLink: linked ? { submissionId: 'sub-1', status: 'DRAFT' } : null };
  return explainFinding(finding, context);
}

const cases = findingMachine.states.flatMap((state) => CHARGES.flatMap((charge) => [false, true].flatMap((linked) => [false, true].map((evidence) => ({ state, charge, linked, evidence })))));

describe('explainFinding', () => {
  it('reads ELIGIBLE exactly for a DISPUTED, SUBMITTED or CARRIER_REVIEW finding with a clear charge and no active submission (spec 4.5 rule 1)', () => {
    const eligible = cases.filter(({ state, charge, linked, evidence }) => explain(state, charge, linked, evidence).claimEligibility === 'ELIGIBLE');
    expect(eligible.every(({ state, charge, linked }) => CLAIMABLE_STATES.includes(state) && charge === 'clear' && !linked)).toBe(true);
    expect(eligible).toHaveLength(CLAIMABLE_STATES.length * 2);
  });

  it('never reads ELIGIBLE in OPEN, DISMISSED, CREDITED or REJECTED, whatever else holds', () => {
    for (const { state, charge, linked, evidence } of cases.filter((c) => ['OPEN', 'DISMISSED', 'CREDITED', 'REJECTED'].includes(c.state))) {
      expect(explain(state, charge, linked, evidence).claimEligibility, `${state} ${charge} linked=${linked}`).not.toBe('ELIGIBLE');
    }
  });

  it('gives a claimBlockerReason exactly when the finding is not ELIGIBLE', () => {
    for (const { state, charge, linked, evidence } of cases) {
      const explained = explain(state, charge, linked, evidence);
      expect(explained.claimBlockerReason === null, `${state} ${charge} linked=${linked}`).toBe(explained.claimEligibility === 'ELIGIBLE');
    }
  });

  it('says claimable only of ELIGIBLE findings, and of every ELIGIBLE finding that needs no evidence', () => {
    for (const { state, charge, linked, evidence } of cases) {
      const explained = explain(state, charge, linked, evidence);
      if (explained.actionability === 'claimable') expect(explained.claimEligibility, `${state} ${charge} linked=${linked}`).toBe('ELIGIBLE');
      if (explained.claimEligibility === 'ELIGIBLE') expect(explained.actionability).toBe(evidence && state === 'DISPUTED' ? 'needs_evidence' : 'claimable');
    }
  });

  it('names the carrier block and the closed window before the workflow state', () => {
    expect(explain('OPEN', 'carrier-blocked', false)).toMatchObject({ claimEligibility: 'CARRIER_BLOCKED', actionability: 'informational' });
    expect(explain('DISPUTED', 'window-closed', false)).toMatchObject({ claimEligibility: 'OUTSIDE_DISPUTE_WINDOW', actionability: 'informational' });
  });

  it('tells an OPEN finding to be disputed, a linked one where it is held, a resolved one that nothing is left to do', () => {
    expect(explain('OPEN', 'clear', false)).toEqual({ claimEligibility: 'INELIGIBLE', claimBlockerReason: 'Dispute the finding before adding it to a claim', actionability: 'disputable' });
    expect(explain('DISPUTED', 'clear', true)).toEqual({ claimEligibility: 'INELIGIBLE', claimBlockerReason: 'Already linked to claim submission sub-1 (DRAFT)', actionability: 'informational' });
    for (const state of ['DISMISSED', 'CREDITED', 'REJECTED'] as const) expect(explain(state, 'clear', false)).toMatchObject({ claimEligibility: 'INELIGIBLE', actionability: 'no_action' });
  });
});
