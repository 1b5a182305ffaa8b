// The coverage outputs: coverage.json is the whole report; report.html gets one row per operation.
import { describe, expect, it } from 'vitest';
import type { CoverageReport } from '../checks/operations/coverage.js';
import { coverageLine, coverageSectionHtml, renderCoverageJson } from './coverage.js';
import { escapeHtml } from './html.js';

const coverage: CoverageReport = {
  contract: 'v1.3.0',
  totals: { constraints: 3, exercised: 1, notExercised: 2, notExercisedBy: { 'not generated': 1, 'not run': 1 } },
  operations: [
    {
      operationId: 'listJobs',
      method: 'GET',
      path: '/api/jobs',
      requests: 2,
      constraints: [
        { input: 'query limit', kind: 'maximum', detail: '100', exercised: true, count: 2 },
        { input: 'query type', kind: 'enum-value', detail: '"<ship_upload>"', exercised: false, count: 0, reason: 'stopped early: its covering request was not sent' },
      ],
    },
    { operationId: 'calculateLandedCost', method: 'POST', path: '/api/trade/landed-cost', requests: 0, constraints: [{ input: 'body originCountry', kind: 'pattern', detail: '/^[A-Z]{2}$/', exercised: false, count: 0, note: 'not generated: ISO 3166-1 reference data', reason: 'not generated: ISO 3166-1 reference data' }] },
    { operationId: 'getJob', method: 'GET', path: '/api/jobs/{id}', requests: 1, constraints: [] },
  ],
};

describe('coverage outputs', () => {
  it('writes the whole report as JSON', () => {
    expect(JSON.parse(renderCoverageJson(coverage))).toEqual(coverage);
  });

  it('renders one escaped row per operation with inputs, naming what was not exercised and why', () => {
    const html = coverageSectionHtml(coverage, escapeHtml);
    expect(html).toContain('1 of 3 constraints exercised, 2 not');
    expect(html).toContain('<tr><td>not generated</td><td>1</td></tr>');
    expect(html).toContain('stopped early: its covering request was not sent');
    expect(html).toContain('<td>1/2</td>');
    expect(html).toContain('query type enum-value &quot;&lt;ship_upload&gt;&quot;');
    expect(html).toContain('not generated: ISO 3166-1 reference data');
    expect(html).not.toContain('getJob');
  });

  it('says in one console line how many constraints were exercised and why the others were not, by cause', () => {
    expect(coverageLine(coverage)).toBe('input coverage: 1 of 3 constraints exercised; 2 not: 1 not generated, 1 not run (every one with its reason in coverage.json)');
  });
});
