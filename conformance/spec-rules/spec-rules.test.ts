// The spec rule inventory is complete and consistent: every rule is held, explained or a listed gap; every
// check it names is in the suite of its contract; ids are unique; every section 2-9 has rules.
import { describe, expect, it } from 'vitest';
import { checksFor } from '../checks/index.js';
import { loadTargetContract } from '../harness/contract.js';
import type { CheckResult } from '../harness/types.js';
import { contractOf, isGap, isHeld, isUnheld, ruleOutcomes, ruleTotals, specRules, type RuleContract } from './index.js';

/** The rules no check holds today that a black-box check could: this list shrinks as checks are written. */
const KNOWN_GAPS: string[] = [];

/** Checks of the v1.3.0 suite that hold no sentence of the spec: what they assert is the contract's or the
 *  sandbox's, which the spec leaves open. */
const BEYOND_THE_SPEC: Record<string, string> = {
  'sima.review-survives-rescreen': "SIMA transitions are not shown (spec 3.5): what a re-screening does to a review is the sandbox's; simulator profile only",
  'ship.claim-packet-contents': "the packet's format and contents are the sandbox's (spec 2.7 shows none); simulator profile only",
  'landed-cost.breakdown-consistent': 'the breakdown contents are sandbox-defined (spec 4.6 rule 8); simulator profile only',
  'advanced-trade.review-status-filter': 'classification reviews are only named (spec 2.10): the status filter is the contract\'s',
  'advanced-trade.apply-needs-decision': "the contract's applyClassification rule (undecided or rejected reviews are not applied); spec 4.6 shows no payload",
};

const registry = new Map<RuleContract, Set<string>>();
const checkIdsOf = (version: RuleContract) => {
  if (!registry.has(version)) registry.set(version, new Set(checksFor(loadTargetContract(version)).map((check) => check.id)));
  return registry.get(version)!;
};

describe('the spec rule inventory', () => {
  it('gives every rule checks that hold it, a reason no check can, or a gap saying what a check would assert', () => {
    const wrong = specRules.filter((rule) => {
      const kinds = [isHeld(rule), isUnheld(rule), isGap(rule)].filter(Boolean).length;
      if (kinds !== 1) return true;
      if (isHeld(rule)) return rule.checks.length === 0;
      if (isUnheld(rule)) return rule.unheld.reason.trim().length < 20;
      return rule.would.trim().length < 20;
    });
    expect(wrong.map((rule) => rule.id)).toEqual([]);
  });

  it('lists its gaps: the rules a black-box check could hold and none does yet', () => {
    expect(specRules.filter(isGap).map((rule) => rule.id)).toEqual(KNOWN_GAPS);
    // The number, visible: it only goes down as checks are written (and their rules move to `checks`).
    expect(KNOWN_GAPS).toHaveLength(0);
  });

  it('names only checks that exist in the suite of the rule\'s contract version', () => {
    const unknown = specRules.filter(isHeld).flatMap((rule) => rule.checks.filter((id) => !checkIdsOf(contractOf(rule)).has(id)).map((id) => `${rule.id}: ${id} (${contractOf(rule)})`));
    expect(unknown).toEqual([]);
  });

  it('names no check twice in one rule', () => {
    const repeated = specRules.filter(isHeld).filter((rule) => new Set(rule.checks).size !== rule.checks.length).map((rule) => rule.id);
    expect(repeated).toEqual([]);
  });

  it('has no two rules with the same id', () => {
    const seen = new Set<string>();
    const repeated = specRules.map((rule) => rule.id).filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
    expect(repeated).toEqual([]);
  });

  it('has ids that start with their section and read as words', () => {
    const wrong = specRules.filter((rule) => !rule.id.startsWith(`${rule.section}.`) || !/^[0-9]+(\.[0-9]+)?\.[a-z0-9][a-z0-9.-]*$/.test(rule.id));
    expect(wrong.map((rule) => rule.id)).toEqual([]);
  });

  it('has rules for every spec section 2 to 9, and for every subsection of 2, 3, 4 and 5', () => {
    const sections = new Set(specRules.map((rule) => rule.section.split('.')[0]));
    expect([...sections].sort()).toEqual(['2', '3', '4', '5', '6', '7', '8', '9']);
    const subsections = new Set(specRules.map((rule) => rule.section));
    const expected = ['2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '2.8', '2.9', '2.10', '3.1', '3.2', '3.3', '3.4', '3.5', '4.1', '4.2', '4.3', '4.4', '4.5', '4.6', '4.7', '5.1', '5.2', '5.3', '5.4', '5.5', '5.6'];
    expect(expected.filter((section) => !subsections.has(section))).toEqual([]);
  });

  it('names every check of the v1.3.0 suite in some rule, except the checks listed as asserting beyond the spec', () => {
    // The generated per-operation checks are named where a rule needs them; every other check must hold a rule
    // (a check holding no sentence of the spec asserts something the spec does not say).
    const named = new Set(specRules.filter(isHeld).flatMap((rule) => rule.checks));
    const orphans = [...checkIdsOf('v1.3.0')].filter((id) => !id.startsWith('operations.') && !named.has(id));
    expect(orphans.sort()).toEqual(Object.keys(BEYOND_THE_SPEC).sort());
    expect(Object.keys(BEYOND_THE_SPEC).filter((id) => named.has(id))).toEqual([]);
  });
});

describe('rule verdicts in a run', () => {
  const result = (id: string, verdict: CheckResult['verdict']): CheckResult => ({ id, title: id, area: 'x', verdict, durationMs: 0, requests: 0, failures: [] }) as unknown as CheckResult;
  const rules = [
    { id: '5.1.a', section: '5.1', kind: 'security' as const, sentence: 's', checks: ['auth.a', 'auth.b'] },
    { id: '5.1.b', section: '5.1', kind: 'security' as const, sentence: 's', checks: ['auth.b'] },
    { id: '5.1.c', section: '5.1', kind: 'security' as const, sentence: 's', checks: ['auth.c'] },
    { id: '5.1.d', section: '5.1', kind: 'security' as const, sentence: 's', unheld: { reason: 'operator-side key lifecycle' } },
    { id: '5.1.e', section: '5.1', kind: 'security' as const, sentence: 's', gap: true as const, would: 'assert something specific' },
  ];

  it('is held when a check passed and none failed, failed when one failed, not run when none ran', () => {
    const outcomes = ruleOutcomes([result('auth.a', 'passed'), result('auth.b', 'skipped')], rules);
    expect(outcomes.map((o) => o.verdict)).toEqual(['held', 'not run', 'not run', 'unheld', 'gap']);
    expect(outcomes[2]!.checks).toEqual([{ id: 'auth.c', verdict: 'absent' }]);
    expect(ruleOutcomes([result('auth.a', 'passed'), result('auth.b', 'failed')], rules)[0]!.verdict).toBe('failed');
  });

  it('says other contract for a rule whose checks are another contract\'s suite and did not run', () => {
    const signup = { id: '4.7.a', section: '4.7', kind: 'state' as const, sentence: 's', contract: 'v1.2.0' as const, checks: ['signup.a'] };
    expect(ruleOutcomes([], [signup], 'v1.3.0')[0]!.verdict).toBe('other contract');
    expect(ruleOutcomes([], [signup], 'v1.2.0')[0]!.verdict).toBe('not run');
    expect(ruleOutcomes([], [rules[2]!], 'v1.2.0')[0]!.verdict).toBe('other contract');
  });

  it('counts rules by verdict, with checks, unheld and gaps', () => {
    const totals = ruleTotals(ruleOutcomes([result('auth.a', 'passed'), result('auth.b', 'failed')], rules));
    expect(totals).toEqual({ rules: 5, withChecks: 3, held: 0, failed: 2, notRun: 1, otherContract: 0, unheld: 1, gaps: 1 });
  });
});
