// The input-coverage outputs (issue 14 item 2): `coverage.json` next to report.json (the whole coverage of
// the run, constraint by constraint) and the short per-operation table of report.html.
import type { CoverageReport } from '../checks/operations/coverage.js';

export const COVERAGE_FILE = 'coverage.json';

export function renderCoverageJson(coverage: CoverageReport): string {
  return JSON.stringify(coverage, null, 2) + '\n';
}

/** Constraints listed as not exercised in an operation's row before "and N more". */
const LISTED = 6;

/** One row per operation that takes inputs: exercised / total, and the first constraints not exercised. */
export function coverageSectionHtml(coverage: CoverageReport, escapeHtml: (value: unknown) => string): string {
  const rows = coverage.operations
    .filter((op) => op.constraints.length > 0)
    .map((op) => {
      const exercised = op.constraints.filter((c) => c.exercised).length;
      const missing = op.constraints.filter((c) => !c.exercised);
      const listed = missing.slice(0, LISTED).map((c) => `${c.input} ${c.kind} ${c.detail}${c.note ? ` (${c.note})` : ''}`);
      const more = missing.length > LISTED ? ` and ${missing.length - LISTED} more` : '';
      return `<tr><td><code>${escapeHtml(op.operationId)}</code></td><td>${op.requests}</td><td>${exercised}/${op.constraints.length}</td><td class="muted">${escapeHtml(listed.join('; ') + more)}${op.note ? `<br>${escapeHtml(op.note)}` : ''}</td></tr>`;
    })
    .join('');
  return `<section id="coverage"><h2>Input coverage <span class="muted">${coverage.totals.exercised} of ${coverage.totals.constraints} constraints exercised (details in ${COVERAGE_FILE})</span></h2>
  <table><thead><tr><th>Operation</th><th>Requests</th><th>Exercised</th><th>Not exercised</th></tr></thead><tbody>${rows}</tbody></table>
</section>`;
}
