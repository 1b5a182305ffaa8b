// JUnit XML for CI: one <testsuite> per spec section, one <testcase> per rule; a failed required rule is a
// <failure> listing what broke it, a failed recommended rule (the spec says "may") a <system-out> warning,
// a rule not exercised <skipped message="not exercised"/> (JUnit has no "not exercised": it is never a pass).
import { xmlSafe } from '../../conformance/reporters/format.js';
import type { Certificate, RuleResult } from '../types.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (text: string) => xmlSafe(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const lines = (rule: RuleResult, pick: 'failures' | 'evidence') =>
  rule.runs.flatMap((run) => run[pick].map((line) => `[${run.scenario}] ${line}`)).join('\n');

function testcase(rule: RuleResult): string {
  const open = `    <testcase classname="${escapeXml(rule.spec)}" name="${escapeXml(rule.id)}">`;
  if (rule.verdict === 'not exercised') return `${open}<skipped message="not exercised: no evidence in any scenario"/></testcase>`;
  if (rule.verdict === 'failed' && rule.level === 'required') {
    return `${open}\n      <failure type="${escapeXml(rule.id)}" message="${escapeXml(rule.title)}">${escapeXml(`${rule.sentence}\n${lines(rule, 'failures')}`)}</failure>\n    </testcase>`;
  }
  if (rule.verdict === 'failed') return `${open}\n      <system-out>${escapeXml(`warning (recommended: the spec says "may"): ${lines(rule, 'failures')}`)}</system-out>\n    </testcase>`;
  return `${open}\n      <system-out>${escapeXml(lines(rule, 'evidence'))}</system-out>\n    </testcase>`;
}

export function renderClientJunit(certificate: Certificate): string {
  const bySpec = new Map<string, RuleResult[]>();
  for (const rule of certificate.rules) bySpec.set(rule.spec, [...(bySpec.get(rule.spec) ?? []), rule]);
  const suites = [...bySpec].map(([spec, rules]) => {
    const failures = rules.filter((r) => r.verdict === 'failed' && r.level === 'required').length;
    const skipped = rules.filter((r) => r.verdict === 'not exercised').length;
    return `  <testsuite name="client ${escapeXml(spec)}" tests="${rules.length}" failures="${failures}" errors="0" skipped="${skipped}">\n${rules.map(testcase).join('\n')}\n  </testsuite>`;
  });
  const { passed, failed, notExercised, warnings } = certificate.totals;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="tfas-certify-client ${escapeXml(certificate.scenario)}" tests="${passed + failed + notExercised + warnings}" failures="${failed}">\n${suites.join('\n')}\n</testsuites>\n`;
}
