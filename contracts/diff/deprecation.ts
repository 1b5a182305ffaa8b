// Spec 9.3: removals or renames need a deprecation of at least 90 days that states a replacement, a cutoff
// date and migration guidance. In the contract: `x-deprecation: { since, sunset, replacement, migration }`
// on an operation, a parameter or a schema property (see contracts/README.md).
import { isObject, type Json } from '../lib/bundle.js';
import { rule, type Rule } from './types.js';

export interface Deprecation {
  since: string;
  sunset: string;
  replacement: string;
  migration: string;
}

export const MIN_DEPRECATION_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether a node is marked deprecated: `deprecated: true` or an `x-deprecation` notice. */
export const isDeprecated = (node: Json | undefined): boolean => isObject(node) && (node.deprecated === true || isObject(node['x-deprecation']));

export function readDeprecation(node: Json | undefined): Partial<Deprecation> | undefined {
  if (!isObject(node) || !isObject(node['x-deprecation'])) return undefined;
  const d = node['x-deprecation'];
  const text = (key: string) => (typeof d[key] === 'string' && (d[key] as string).trim() ? (d[key] as string) : undefined);
  return { since: text('since'), sunset: text('sunset'), replacement: text('replacement'), migration: text('migration') };
}

/** What is wrong with a deprecation notice (empty when it satisfies spec 9.3). */
export function deprecationProblems(deprecation: Partial<Deprecation> | undefined): string[] {
  if (!deprecation) return ['it was never deprecated'];
  const problems: string[] = [];
  for (const key of ['since', 'sunset', 'replacement', 'migration'] as const) {
    if (!deprecation[key]) problems.push(`the deprecation states no ${key}`);
  }
  const since = Date.parse(deprecation.since ?? '');
  const sunset = Date.parse(deprecation.sunset ?? '');
  if (deprecation.since && Number.isNaN(since)) problems.push(`since ${deprecation.since} is not a date`);
  if (deprecation.sunset && Number.isNaN(sunset)) problems.push(`sunset ${deprecation.sunset} is not a date`);
  if (!Number.isNaN(since) && !Number.isNaN(sunset) && sunset - since < MIN_DEPRECATION_DAYS * DAY_MS) {
    problems.push(`the window from ${deprecation.since} to ${deprecation.sunset} is shorter than ${MIN_DEPRECATION_DAYS} days`);
  }
  return problems;
}

/** Whether BASE's deprecation lets HEAD remove the thing on `date`: a complete notice whose sunset has passed. */
export function removalAllowed(deprecation: Partial<Deprecation> | undefined, date: Date): { allowed: boolean; reason: string } {
  const problems = deprecationProblems(deprecation);
  if (problems.length) return { allowed: false, reason: problems.join('; ') };
  const sunset = Date.parse(deprecation!.sunset!);
  if (sunset > date.getTime()) return { allowed: false, reason: `its sunset ${deprecation!.sunset} has not passed on ${date.toISOString().slice(0, 10)}` };
  return { allowed: true, reason: `deprecated since ${deprecation!.since}, sunset ${deprecation!.sunset} passed, replacement: ${deprecation!.replacement}` };
}


/** Rules about deprecation notices themselves; both the operation and the schema differ report them. */
export const deprecationRules: Rule[] = [
  rule('deprecation-added', 'info', 'An operation, parameter or property is newly marked deprecated with a complete notice.', 'parameters: [{ name: sort }]', "parameters: [{ name: sort, deprecated: true, x-deprecation: { since: '2026-01-01', sunset: '2026-06-01', replacement: order, migration: '...' } }]"),
  rule('deprecation-incomplete', 'warning', 'A deprecation notice lacks a replacement, a sunset, migration guidance, or gives a window under 90 days (spec 9.3).', 'deprecated: false', "deprecated: true, x-deprecation: { since: '2026-01-01', sunset: '2026-02-01' }"),
  rule('sunset-moved-earlier', 'breaking', 'The sunset (cutoff) date of a deprecation moves earlier.', "x-deprecation: { sunset: '2026-09-01' }", "x-deprecation: { sunset: '2026-06-01' }"),
  rule('removal-after-sunset', 'info', 'Something removed that BASE deprecated with a complete notice whose sunset has passed: an allowed removal.', "GET /api/legacy (x-deprecation: sunset '2026-06-01')", '(removed; checked on 2026-07-01)'),
  rule('deprecation-withdrawn', 'info', 'A deprecation is taken back (the thing stays).', 'deprecated: true', 'deprecated: false'),
];
