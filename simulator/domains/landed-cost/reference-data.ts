// The landed-cost reference data (fixtures/landed-cost/), checked and indexed once at start-up: every table
// must name its sources and an as-of date, and every row must be usable, or the simulator refuses to start
// (a quote never meets a malformed row). Lookups are maps, never scans of a table per request.
import { CUSTOMS_AUTHORITIES, type CustomsAuthority } from '#fixtures/landed-cost/authorities.js';
import { ISO_4217_CURRENCIES } from '#fixtures/landed-cost/currencies.js';
import { DE_MINIMIS_RULES, type DeMinimisRule } from '#fixtures/landed-cost/de-minimis.js';
import { MFN_DUTY_RATES, type DutyRateRow } from '#fixtures/landed-cost/duty-rates.js';
import { FX_RATES, type FxRateRow } from '#fixtures/landed-cost/fx-rates.js';
import { IMPORT_TAXES, type ImportTaxRow } from '#fixtures/landed-cost/import-taxes.js';
import type { SourcedTable } from '#fixtures/landed-cost/table.js';

export interface ReferenceTables {
  authorities: SourcedTable<CustomsAuthority>;
  dutyRates: SourcedTable<DutyRateRow>;
  importTaxes: SourcedTable<ImportTaxRow>;
  deMinimis: SourcedTable<DeMinimisRule>;
  fxRates: SourcedTable<FxRateRow>;
  currencies: SourcedTable<string>;
}

export const FIXTURE_TABLES: ReferenceTables = {
  authorities: CUSTOMS_AUTHORITIES,
  dutyRates: MFN_DUTY_RATES,
  importTaxes: IMPORT_TAXES,
  deMinimis: DE_MINIMIS_RULES,
  fxRates: FX_RATES,
  currencies: ISO_4217_CURRENCIES,
};

export class ReferenceDataError extends Error {}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** HS / tariff code digits: dots, spaces and dashes aside (`6109.10` and `6109 10` are `610910`). */
const hsDigits = (code: string): string => code.replace(/[\s.-]/g, '');

export interface ReferenceData {
  tables: ReferenceTables;
  /** The authority of a destination: its own, else the default one (spec 4.6 rule 6: US/default). */
  authorityFor(destination: string): CustomsAuthority;
  /** The duty row of the longest code the HS code starts with, for that authority. */
  dutyFor(authority: CustomsAuthority['id'], hsCode: string): DutyRateRow | undefined;
  /** The tax a request without a region pays in the destination (null: none known). */
  defaultTaxFor(destination: string, date: string): ImportTaxRow | null;
  /** De minimis rules of a destination (every date, channel and origin; de-minimis.ts chooses). */
  deMinimisRulesFor(destination: string): readonly DeMinimisRule[];
  isCurrency(code: string): boolean;
  /** `amount` of `from` in `to`, or null without a rate for either. */
  convert(amount: number, from: string, to: string): number | null;
  fxAsOf: string;
}

function checkTable(name: string, table: SourcedTable<unknown>): void {
  if (!table.sources.length || table.sources.some((s) => !s.trim())) throw new ReferenceDataError(`landed-cost table ${name} names no source`);
  if (!DATE.test(table.asOf)) throw new ReferenceDataError(`landed-cost table ${name} has no as-of date (YYYY-MM-DD): ${JSON.stringify(table.asOf)}`);
  if (!table.rows.length) throw new ReferenceDataError(`landed-cost table ${name} is empty`);
}

export function loadReferenceData(tables: ReferenceTables = FIXTURE_TABLES): ReferenceData {
  for (const [name, table] of Object.entries(tables)) checkTable(name, table as SourcedTable<unknown>);

  const byDestination = new Map<string, CustomsAuthority>();
  const defaults = tables.authorities.rows.filter((a) => a.isDefault);
  if (defaults.length !== 1) throw new ReferenceDataError(`landed-cost authorities need exactly one default, found ${defaults.length}`);
  for (const authority of tables.authorities.rows) {
    for (const destination of authority.destinations) {
      if (byDestination.has(destination)) throw new ReferenceDataError(`destination ${destination} has two authorities`);
      byDestination.set(destination, authority);
    }
  }

  const duties = new Map<string, DutyRateRow>();
  for (const row of tables.dutyRates.rows) {
    if (!/^\d{6,10}$/.test(row.code)) throw new ReferenceDataError(`duty row ${row.authority} ${row.code}: a code is 6 to 10 digits`);
    if (!row.published.trim() || !row.source.trim()) throw new ReferenceDataError(`duty row ${row.authority} ${row.code} needs its published expression and source`);
    if ('parts' in row.duty) {
      for (const part of row.duty.parts) {
        if (part.kind === 'ad_valorem' && !(part.rate >= 0 && part.rate < 10)) throw new ReferenceDataError(`duty row ${row.authority} ${row.code}: ad valorem rate ${part.rate} is not a fraction`);
        if (part.kind === 'specific' && !(part.amount > 0 && part.per > 0)) throw new ReferenceDataError(`duty row ${row.authority} ${row.code}: a specific duty needs a positive amount and per`);
      }
    }
    const key = `${row.authority}:${row.code}`;
    if (duties.has(key)) throw new ReferenceDataError(`duty row ${key} is listed twice`);
    duties.set(key, row);
  }

  const taxes = new Map<string, ImportTaxRow[]>();
  for (const row of tables.importTaxes.rows) {
    if (!(row.rate >= 0 && row.rate < 1)) throw new ReferenceDataError(`tax ${row.destination} ${row.code}: rate ${row.rate} is not a fraction`);
    taxes.set(row.destination, [...(taxes.get(row.destination) ?? []), row]);
  }
  for (const [destination, rows] of taxes) {
    if (rows.filter((r) => r.isDefault).length < 1) throw new ReferenceDataError(`taxes of ${destination} have no default row`);
  }

  const rules = new Map<string, DeMinimisRule[]>();
  for (const rule of tables.deMinimis.rows) {
    if (!(rule.threshold >= 0) || (rule.relief === 'flat_charge') !== (rule.charge !== undefined)) throw new ReferenceDataError(`de minimis rule ${rule.id} is malformed`);
    for (const d of [rule.effectiveFrom, rule.effectiveTo]) if (d !== null && !DATE.test(d)) throw new ReferenceDataError(`de minimis rule ${rule.id}: bad date ${d}`);
    for (const destination of rule.destinations) rules.set(destination, [...(rules.get(destination) ?? []), rule]);
  }

  const currencies = new Set(tables.currencies.rows);
  const perEuro = new Map<string, number>();
  for (const row of tables.fxRates.rows) {
    if (!currencies.has(row.currency) || !(row.perEuro > 0)) throw new ReferenceDataError(`fx rate ${row.currency} is malformed`);
    perEuro.set(row.currency, row.perEuro);
  }

  return {
    tables,
    authorityFor: (destination) => byDestination.get(destination) ?? defaults[0],
    dutyFor(authority, hsCode) {
      const digits = hsDigits(hsCode);
      for (let length = Math.min(10, digits.length); length >= 6; length--) {
        const row = duties.get(`${authority}:${digits.slice(0, length)}`);
        if (row) return row;
      }
      return undefined;
    },
    defaultTaxFor(destination, date) {
      // The latest default row in force on the date (a rate change adds a row with its effectiveFrom); before
      // the earliest one, that one (the table keeps no older rate).
      const rows = (taxes.get(destination) ?? []).filter((r) => r.isDefault).sort((a, b) => (a.effectiveFrom ?? '').localeCompare(b.effectiveFrom ?? ''));
      return rows.filter((r) => r.effectiveFrom === null || r.effectiveFrom <= date).at(-1) ?? rows[0] ?? null;
    },
    deMinimisRulesFor: (destination) => rules.get(destination) ?? [],
    isCurrency: (code) => currencies.has(code),
    convert(amount, from, to) {
      if (from === to) return amount;
      const a = perEuro.get(from);
      const b = perEuro.get(to);
      return a === undefined || b === undefined ? null : (amount / a) * b;
    },
    fxAsOf: tables.fxRates.asOf,
  };
}
