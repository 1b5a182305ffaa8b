// The input-coverage outputs (issue 14 item 2, issue 26 item 6): `coverage.json` next to report.json (the whole
// coverage of the run, constraint by constraint, each one not exercised with its reason; and, issue 27, the spec
// rules held: reporters/spec-rules.ts), the input-coverage section of report.html (the counts per cause, then one
// row per operation) and the console's one line.
import type { CoverageReport } from '../checks/operations/coverage.js';
import type { SpecRulesReport } from './spec-rules.js';

export const COVERAGE_FILE = 'coverage.json';

/** coverage.json: the input coverage (when the operation checks ran) and the spec rules' counts and verdicts. */
export function renderCoverageJson(coverage: CoverageReport | undefined, specRules?: SpecRulesReport): string {
  return JSON.stringify({ ...(coverage ?? {}), ...(specRules ? { specRules } : {}) }, null, 2) + '\n';
}

/** `exercised N of M input constraints; K not: A not generated, B not sendable, ...` (largest cause first). */
export function coverageLine(coverage: CoverageReport): string {
  const { constraints, exercised, notExercised, notExercisedBy } = coverage.totals;
  const causes = Object.entries(notExercisedBy ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const why = causes.length ? `: ${causes.map(([cause, n]) => `${n} ${cause}`).join(', ')}` : '';
  return `input coverage: ${exercised} of ${constraints} constraints exercised; ${notExercised ?? constraints - exercised} not${why} (every one with its reason in ${COVERAGE_FILE})`;
}

/** Constraints listed as not exercised in an operation's row before "and N more". */
const LISTED = 6;

/** The counts per cause, then one row per operation that takes inputs: exercised / total, and the first
 *  constraints not exercised with their reasons. */
export function coverageSectionHtml(coverage: CoverageReport, escapeHtml: (value: unknown) => string): string {
  const rows = coverage.operations
    .filter((op) => op.constraints.length > 0)
    .map((op) => {
      const exercised = op.constraints.filter((c) => c.exercised).length;
      const missing = op.constraints.filter((c) => !c.exercised);
      const listed = missing.slice(0, LISTED).map((c) => `${c.input} ${c.kind} ${c.detail}${c.reason ?? c.note ? ` (${c.reason ?? c.note})` : ''}`);
      const more = missing.length > LISTED ? ` and ${missing.length - LISTED} more` : '';
      return `<tr><td><code>${escapeHtml(op.operationId)}</code></td><td>${op.requests}</td><td>${exercised}/${op.constraints.length}</td><td class="muted">${escapeHtml(listed.join('; ') + more)}${op.note ? `<br>${escapeHtml(op.note)}` : ''}</td></tr>`;
    })
    .join('');
  const { constraints, exercised, notExercisedBy } = coverage.totals;
  const causes = Object.entries(notExercisedBy ?? {})
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([cause, n]) => `<tr><td>${escapeHtml(cause)}</td><td>${n}</td></tr>`)
    .join('');
  return `<section id="coverage"><h2>Input coverage <span class="muted">${exercised} of ${constraints} constraints exercised, ${constraints - exercised} not (details in ${COVERAGE_FILE})</span></h2>
  ${causes ? `<table><thead><tr><th>Not exercised, by cause</th><th>Constraints</th></tr></thead><tbody>${causes}</tbody></table>` : ''}
  <table><thead><tr><th>Operation</th><th>Requests</th><th>Exercised</th><th>Not exercised (why)</th></tr></thead><tbody>${rows}</tbody></table>
</section>`;
}
