// The spec rule inventory (issue 27 item 1): every normative sentence of the public spec v1.3.0, sections 2-9,
// as data (one file per section), and each rule's verdict in a run: held when a check holding it passed and
// none failed, failed when one failed, not run when none of its checks ran (skipped or not selected).
import type { CheckResult } from '../harness/types.js';
import { contractOf, isGap, isHeld, isUnheld, type SpecRule } from './rule.js';
import { section2Rules } from './s2-resources.js';
import { section3Rules } from './s3-states.js';
import { section41Rules } from './s4-1-auth-billing-jobs.js';
import { section42Rules } from './s4-2-sima.js';
import { section43Rules } from './s4-3-uploads.js';
import { section44Rules } from './s4-4-trade-feeds.js';
import { section45Rules } from './s4-5-ship.js';
import { section46Rules } from './s4-6-landed-cost.js';
import { section47Rules } from './s4-7-signup.js';
import { section5Rules } from './s5-auth.js';
import { section6Rules } from './s6-events.js';
import { section7Rules } from './s7-errors.js';
import { section8Rules } from './s8-limits.js';
import { section9Rules } from './s9-versioning.js';

export * from './rule.js';

/** Every rule, in the spec's order. */
export const specRules: SpecRule[] = [
  ...section2Rules,
  ...section3Rules,
  ...section41Rules,
  ...section42Rules,
  ...section43Rules,
  ...section44Rules,
  ...section45Rules,
  ...section46Rules,
  ...section47Rules,
  ...section5Rules,
  ...section6Rules,
  ...section7Rules,
  ...section8Rules,
  ...section9Rules,
];

/** A rule's verdict in a run: held, failed or not run for a rule with checks (other contract when its checks
 *  are another contract's suite and none ran, e.g. signup in a v1.3.0 run); unheld or gap otherwise. */
export type RuleVerdict = 'held' | 'failed' | 'not run' | 'other contract' | 'unheld' | 'gap';

export interface RuleOutcome {
  rule: SpecRule;
  verdict: RuleVerdict;
  /** Its checks with their verdict in the run (`absent` when the run did not select it). */
  checks: Array<{ id: string; verdict: CheckResult['verdict'] | 'absent' }>;
}

/** Each rule's verdict from the results of a run against `contract` (when given). */
export function ruleOutcomes(results: CheckResult[], rules: SpecRule[] = specRules, contract?: string): RuleOutcome[] {
  const byId = new Map(results.map((result) => [result.id, result.verdict]));
  return rules.map((rule) => {
    if (!isHeld(rule)) return { rule, verdict: isGap(rule) ? 'gap' : 'unheld', checks: [] };
    const checks = rule.checks.map((id) => ({ id, verdict: byId.get(id) ?? ('absent' as const) }));
    const ran = checks.some((c) => c.verdict !== 'absent');
    const verdict: RuleVerdict = checks.some((c) => c.verdict === 'failed')
      ? 'failed'
      : checks.some((c) => c.verdict === 'passed')
        ? 'held'
        : !ran && contract !== undefined && contract !== contractOf(rule)
          ? 'other contract'
          : 'not run';
    return { rule, verdict, checks };
  });
}

/** The counts coverage.json and the report give: every rule once. */
export interface SpecRuleTotals {
  rules: number;
  /** Rules with checks: held, failed and not run in this run. */
  withChecks: number;
  held: number;
  failed: number;
  notRun: number;
  /** Rules whose checks are another contract's suite (none of them ran). */
  otherContract: number;
  /** Rules no black-box check can hold, each with its reason. */
  unheld: number;
  /** Rules a check could hold and none does yet. */
  gaps: number;
}

export function ruleTotals(outcomes: RuleOutcome[]): SpecRuleTotals {
  const count = (verdict: RuleVerdict) => outcomes.filter((o) => o.verdict === verdict).length;
  return {
    rules: outcomes.length,
    withChecks: outcomes.filter((o) => isHeld(o.rule)).length,
    held: count('held'),
    failed: count('failed'),
    notRun: count('not run'),
    otherContract: count('other contract'),
    unheld: outcomes.filter((o) => isUnheld(o.rule)).length,
    gaps: count('gap'),
  };
}
