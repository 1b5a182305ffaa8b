// The "By spec rule" view of a run: each rule with its checks and its verdict in report.html, the counts and
// verdicts in coverage.json, one line on the console.
import { describe, expect, it } from 'vitest';
import type { SpecRule } from '../spec-rules/index.js';
import { renderCoverageJson } from './coverage.js';
import { escapeHtml, renderHtml } from './html.js';
import { syntheticReport } from './reports.testing.js';
import { specRulesLine, specRulesOfRun, specRulesSectionHtml } from './spec-rules.js';

// The synthetic run: auth.token-exchange passed, auth.token-type and jobs.state-machine failed,
// webhooks.signature skipped.
const rules: SpecRule[] = [
  { id: '5.1.key-exchange', section: '5.1', kind: 'security', sentence: 'The key exchanges for a <bearer>.', checks: ['auth.token-exchange'] },
  { id: '2.1.token.type-bearer', section: '2.1', kind: 'shape', sentence: 'token_type is always Bearer.', checks: ['auth.token-exchange', 'auth.token-type'] },
  { id: '6.signature.hmac', section: '6', kind: 'security', sentence: 'The digest is an HMAC.', checks: ['webhooks.signature'] },
  { id: '4.7.signup.create', section: '4.7', kind: 'shape', contract: 'v1.2.0', sentence: 'Create answers 201.', checks: ['signup.create-rules'] },
  { id: '6.config.secret-encrypted', section: '6', kind: 'security', sentence: 'The secret is stored encrypted.', unheld: { reason: 'storage at rest is operator-side' } },
  { id: '6.rule2.attempt-timeout', section: '6', kind: 'timing', sentence: 'Each attempt times out after 10 seconds.', gap: true, would: 'hold an attempt open past 10 s and see the retry' },
];

describe('the spec rule view', () => {
  it('gives each rule its verdict from the run: held, failed, not run, other contract, unheld, gap', () => {
    const view = specRulesOfRun(syntheticReport(), rules);
    expect(view.rules.map((rule) => [rule.id, rule.verdict])).toEqual([
      ['5.1.key-exchange', 'held'],
      ['2.1.token.type-bearer', 'failed'],
      ['6.signature.hmac', 'not run'],
      ['4.7.signup.create', 'other contract'],
      ['6.config.secret-encrypted', 'unheld'],
      ['6.rule2.attempt-timeout', 'gap'],
    ]);
    expect(view.rules[1]!.checks).toEqual([{ id: 'auth.token-exchange', verdict: 'passed' }, { id: 'auth.token-type', verdict: 'failed' }]);
    expect(view.rules[4]!.reason).toBe('storage at rest is operator-side');
    expect(view.rules[5]!.would).toBe('hold an attempt open past 10 s and see the retry');
    expect(view.totals).toEqual({ rules: 6, withChecks: 4, held: 1, failed: 1, notRun: 1, otherContract: 1, unheld: 1, gaps: 1 });
  });

  it('puts the counts and every verdict in coverage.json beside the input coverage', () => {
    const json = JSON.parse(renderCoverageJson(undefined, specRulesOfRun(syntheticReport(), rules)));
    expect(json.specRules.totals.held).toBe(1);
    expect(json.specRules.rules).toHaveLength(6);
    expect(json.specRules.contract).toBe('v1.3.0');
  });

  it('renders one escaped row per rule with its checks linked to their failures, and its counts', () => {
    const html = specRulesSectionHtml(syntheticReport(), escapeHtml, (id) => `#check-${id}`, rules);
    expect(html.match(/<tr class=/g)).toHaveLength(6);
    expect(html).toContain('The key exchanges for a &lt;bearer&gt;.');
    expect(html).toContain('<a href="#check-auth.token-type"><code>auth.token-type</code></a>');
    expect(html).toContain('no check can: storage at rest is operator-side');
    expect(html).toContain('gap: a check would hold an attempt open past 10 s');
    expect(html).toContain('6 rules, 1 held, 1 failed, 1 not run');
  });

  it('is a section of report.html, after the checks', () => {
    const html = renderHtml(syntheticReport());
    expect(html.indexOf('<section id="spec-rules">')).toBeGreaterThan(html.indexOf('class="area"'));
    expect(html).toContain('<code>2.1.token.type-bearer</code>');
  });

  it('says on the console how many rules with checks were held, and the unheld and gaps, within 80 columns', () => {
    const line = specRulesLine(specRulesOfRun(syntheticReport(), rules).totals);
    expect(line).toBe('spec rules: 1 of 3 held (1 failed, 1 not run); 1 unheld; 1 gap');
    const inventory = specRulesLine({ rules: 999, withChecks: 999, held: 999, failed: 999, notRun: 999, otherContract: 0, unheld: 999, gaps: 999 });
    expect(inventory.length).toBeLessThanOrEqual(80);
  });
});
