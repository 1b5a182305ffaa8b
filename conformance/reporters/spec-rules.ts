// The spec rule view of a run (issue 27 item 1): each rule of the inventory (conformance/spec-rules/) with its
// checks and its verdict in this run, counted in coverage.json (`specRules`) and shown in report.html ("By spec
// rule"). The verdicts are a function of the results, so a merged report recomputes them from the merged results.
import type { RunReport } from '../harness/types.js';
import { isGap, isUnheld, ruleOutcomes, ruleTotals, specRules, type RuleOutcome, type RuleVerdict, type SpecRule, type SpecRuleTotals } from '../spec-rules/index.js';

export interface SpecRulesReport {
  /** The spec version the inventory is of. */
  spec: 'v1.3.0';
  /** The contract the run certified. */
  contract: string;
  totals: SpecRuleTotals;
  rules: Array<{
    id: string;
    section: string;
    kind: SpecRule['kind'];
    verdict: RuleVerdict;
    checks?: Array<{ id: string; verdict: string }>;
    reason?: string;
    would?: string;
  }>;
}

export function specRulesOfRun(report: RunReport, rules: SpecRule[] = specRules): SpecRulesReport {
  const outcomes = ruleOutcomes(report.results, rules, report.target.contract);
  return {
    spec: 'v1.3.0',
    contract: report.target.contract,
    totals: ruleTotals(outcomes),
    rules: outcomes.map(({ rule, verdict, checks }) => ({
      id: rule.id,
      section: rule.section,
      kind: rule.kind,
      verdict,
      ...(checks.length ? { checks } : {}),
      ...(isUnheld(rule) ? { reason: rule.unheld.reason } : {}),
      ...(isGap(rule) ? { would: rule.would } : {}),
    })),
  };
}

/** The console's line, within 80 columns: `spec rules: 180 of 289 held (2 failed, 90 not run); 32 unheld; 41 gaps`.
 *  Rules of another contract's suite are left out of it (they are in coverage.json and the HTML view). */
export function specRulesLine(totals: SpecRuleTotals): string {
  const others = [totals.failed && `${totals.failed} failed`, totals.notRun && `${totals.notRun} not run`].filter(Boolean).join(', ');
  return `spec rules: ${totals.held} of ${totals.withChecks - totals.otherContract} held${others ? ` (${others})` : ''}; ${totals.unheld} unheld; ${totals.gaps} gap${totals.gaps === 1 ? '' : 's'}`;
}

/** The HTML view's counts, in words. */
function totalsText(totals: SpecRuleTotals): string {
  const parts = [
    `${totals.rules} rules`,
    `${totals.held} held`,
    totals.failed && `${totals.failed} failed`,
    totals.notRun && `${totals.notRun} not run`,
    totals.otherContract && `${totals.otherContract} of another contract's suite`,
    `${totals.unheld} no black-box check can hold (each with its reason)`,
    `${totals.gaps} gap${totals.gaps === 1 ? '' : 's'} (no check yet)`,
  ];
  return parts.filter(Boolean).join(', ');
}

/** Row colours: a gap is no failure of the server (the suite lacks the check), so it is not painted as one. */
const VERDICT_CLASS: Record<RuleVerdict, string> = { held: 'passed', failed: 'failed', 'not run': 'skipped', 'other contract': 'skipped', unheld: 'skipped', gap: 'not-run' };

function ruleRow(outcome: RuleOutcome, escapeHtml: (value: unknown) => string, checkHref: (id: string) => string | undefined): string {
  const { rule, verdict, checks } = outcome;
  const held = checks
    .map(({ id, verdict: v }) => {
      const href = v === 'failed' ? checkHref(id) : undefined;
      const name = `<code>${escapeHtml(id)}</code>`;
      return `${href ? `<a href="${escapeHtml(href)}">${name}</a>` : name} <span class="verdict ${v === 'absent' ? 'skipped' : escapeHtml(v.replace(' ', '-'))}">${escapeHtml(v)}</span>`;
    })
    .join('<br>');
  const why = isUnheld(rule) ? `<span class="muted">no check can: ${escapeHtml(rule.unheld.reason)}</span>` : isGap(rule) ? `<span class="muted">gap: a check would ${escapeHtml(rule.would)}</span>` : '';
  return `<tr class="${VERDICT_CLASS[verdict]}"><td><code>${escapeHtml(rule.id)}</code></td><td>${escapeHtml(rule.section)}</td><td>${escapeHtml(rule.sentence)}<div class="muted">${escapeHtml(rule.kind)}</div></td><td>${held || why}</td><td><span class="verdict ${VERDICT_CLASS[verdict]}">${escapeHtml(verdict)}</span></td></tr>`;
}

/** The "By spec rule" section: the counts, then one row per rule in the spec's order. */
export function specRulesSectionHtml(report: RunReport, escapeHtml: (value: unknown) => string, checkHref: (id: string) => string | undefined = () => undefined, rules: SpecRule[] = specRules): string {
  const outcomes = ruleOutcomes(report.results, rules, report.target.contract);
  const totals = ruleTotals(outcomes);
  return `<section id="spec-rules"><h2>By spec rule <span class="muted">${escapeHtml(totalsText(totals))}. Every normative sentence of the public spec v1.3.0 (sections 2-9) with the checks that hold it (held: one passed and none failed), or why no black-box check can, or what a check would assert where none does yet (gap). Counts in coverage.json.</span></h2>
  <table class="checks"><colgroup><col class="c-id"><col class="c-num"><col><col class="c-id"><col class="c-verdict"></colgroup>
  <thead><tr><th>Rule</th><th>Section</th><th>Sentence</th><th>Checks</th><th>Verdict</th></tr></thead><tbody>${outcomes.map((outcome) => ruleRow(outcome, escapeHtml, checkHref)).join('')}</tbody></table>
</section>`;
}
