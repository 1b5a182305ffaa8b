// The table of fixtures/landed-cost/README.md: for each destination, the threshold and the tax that apply on
// a date, rendered from the reference data the engine quotes with (reference-data.test.ts keeps the README
// equal to it for the date it states).
import { rulesInForce, QUOTE_CHANNEL } from './de-minimis.js';
import type { ReferenceData } from './reference-data.js';

export const REGIME_START = '<!-- regimes:start -->';
export const REGIME_END = '<!-- regimes:end -->';

const RELIEF: Record<string, string> = {
  duty_and_tax: 'no duty, no tax',
  duty: 'no duty; tax due',
  flat_charge: 'no tariff duty; a flat charge per item category',
  none: 'suspended: no relief, threshold still reported',
};

/** Rows: a destination and, where the origin matters, a representative origin. */
const ROWS: Array<{ label: string; destination: string; origin: string }> = [
  { label: 'US', destination: 'US', origin: 'IN' },
  { label: 'CA, from US or MX', destination: 'CA', origin: 'US' },
  { label: 'CA, from elsewhere', destination: 'CA', origin: 'CN' },
  { label: 'GB', destination: 'GB', origin: 'CN' },
  { label: 'DE', destination: 'DE', origin: 'CN' },
  { label: 'FR', destination: 'FR', origin: 'CN' },
  { label: 'NL', destination: 'NL', origin: 'CN' },
  { label: 'AU', destination: 'AU', origin: 'CN' },
  { label: 'other (e.g. JP)', destination: 'JP', origin: 'CN' },
];

const amount = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

export function renderRegimeTable(date: string, data: ReferenceData): string {
  const lines = [
    REGIME_START,
    `On ${date}, courier shipments:`,
    '',
    '| destination | authority (sourceCode) | duty on | de minimis | import tax |',
    '|---|---|---|---|---|',
  ];
  for (const row of ROWS) {
    const authority = data.authorityFor(row.destination);
    const tiers = rulesInForce(data.deMinimisRulesFor(row.destination), { originCountry: row.origin, channel: QUOTE_CHANNEL, date });
    const threshold = tiers.length ? tiers.map((t) => `${t.currency} ${amount(t.threshold)}: ${RELIEF[t.relief]}${t.charge ? ` (${t.charge.currency} ${amount(t.charge.amount)})` : ''} [${t.id}]`).join('; ') : 'none known';
    const tax = data.defaultTaxFor(row.destination, date);
    const taxText = !tax ? 'none known' : tax.rate === 0 ? tax.name.toLowerCase() : `${tax.code} ${amount(tax.rate * 100)} % on ${tax.base} + duty`;
    const own = authority.destinations.includes(row.destination);
    lines.push(`| ${row.label} | ${authority.authority} (${authority.sourceCode})${own ? '' : ', the default'} | ${authority.customsValueBasis} | ${threshold} | ${taxText} |`);
  }
  lines.push(REGIME_END);
  return lines.join('\n');
}
