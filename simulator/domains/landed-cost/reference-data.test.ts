// The landed-cost reference data loads at start-up only when every table is sourced, dated and well formed,
// and the fixtures README shows what the data says for the date it names.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MFN_DUTY_RATES } from '#fixtures/landed-cost/duty-rates.js';
import { DATA } from './landed-cost.testing.js';
import { FIXTURE_TABLES, loadReferenceData, ReferenceDataError } from './reference-data.js';
import { REGIME_END, REGIME_START, renderRegimeTable } from './regime-table.js';

describe('the landed-cost reference tables', () => {
  it('each name their sources and an as-of date', () => {
    for (const [name, table] of Object.entries(FIXTURE_TABLES)) {
      expect(table.sources.length, name).toBeGreaterThan(0);
      expect(table.asOf, name).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('hold every kind of duty the engine is asked for: ad valorem, specific per KGM, LTR and TNE, compound, unsupported', () => {
    const kinds = new Set(
      MFN_DUTY_RATES.rows.flatMap((row) => ('unsupported' in row.duty ? ['unsupported'] : row.duty.parts.length > 1 ? ['compound', ...row.duty.parts.map((p) => (p.kind === 'specific' ? p.unit : p.kind))] : row.duty.parts.map((p) => (p.kind === 'specific' ? p.unit : p.kind)))),
    );
    for (const kind of ['ad_valorem', 'KGM', 'LTR', 'TNE', 'compound', 'unsupported']) expect(kinds.has(kind), kind).toBe(true);
  });

  it('refuse to load without a source, without an as-of date, or with a rate that is not a fraction', () => {
    expect(() => loadReferenceData({ ...FIXTURE_TABLES, dutyRates: { ...MFN_DUTY_RATES, sources: [] } })).toThrow(ReferenceDataError);
    expect(() => loadReferenceData({ ...FIXTURE_TABLES, dutyRates: { ...MFN_DUTY_RATES, asOf: 'recently' } })).toThrow(/as-of date/);
    const percent = { ...MFN_DUTY_RATES.rows[0], duty: { parts: [{ kind: 'ad_valorem' as const, rate: 16.5 }] } };
    expect(() => loadReferenceData({ ...FIXTURE_TABLES, dutyRates: { ...MFN_DUTY_RATES, rows: [percent] } })).toThrow(/not a fraction/);
  });

  it('match a tariff code by the longest row it starts with, dots and spaces aside', () => {
    expect(DATA.dutyFor('US', '6109.10.0012')?.code).toBe('610910');
    expect(DATA.dutyFor('US', '0404 10 15')?.code).toBe('04041015');
    expect(DATA.dutyFor('US', '0404.10')).toBeUndefined();
  });
});

describe('fixtures/landed-cost/README.md', () => {
  it('shows the threshold and tax of each destination for the date it names (regenerate with renderRegimeTable)', () => {
    const readme = readFileSync(new URL('../../../fixtures/landed-cost/README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf(REGIME_START), readme.indexOf(REGIME_END) + REGIME_END.length);
    const date = /On (\d{4}-\d{2}-\d{2})/.exec(table)?.[1];
    expect(date).toBeDefined();
    expect(table).toBe(renderRegimeTable(date!, DATA));
  });
});
