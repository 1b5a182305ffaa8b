// diffContracts(base, head): every change between two bundled contract documents, judged by the rules of
// the catalogue (schema-level rules in schemas/, operation and document rules in operations/).
import type { OpenApiDocument } from '../lib/bundle.js';
import { deprecationRules } from './deprecation.js';
import { diffDocuments, operationRules } from './operation-diff.js';
import { schemaRules } from './schema-diff.js';
import { SEVERITIES, type Change, type DiffContext, type DiffOptions, type DiffResult, type Rule } from './types.js';

export const RULES: Rule[] = [...operationRules, ...schemaRules, ...deprecationRules];

export function diffContracts(base: OpenApiDocument, head: OpenApiDocument, labels: { base: string; head: string } = { base: 'base', head: 'head' }, options: DiffOptions = {}): DiffResult {
  const date = options.date ?? new Date();
  const rules = new Map(RULES.map((rule) => [rule.id, rule]));
  const changes: Change[] = [];
  const seen = new Set<string>();
  const context: DiffContext = {
    base,
    head,
    date,
    emit(ruleId, change) {
      const rule = rules.get(ruleId);
      if (!rule) throw new Error(`change reported under unknown rule ${ruleId}`);
      // One finding per rule and place: a schema reached through two paths is reported once.
      const key = `${ruleId}\u0000${change.operation}\u0000${change.location}`;
      if (seen.has(key)) return;
      seen.add(key);
      changes.push({ rule: ruleId, severity: rule.severity, ...change });
    },
  };
  diffDocuments(context);
  dropSuperseded(changes, rules);
  const order = (c: Change) => SEVERITIES.indexOf(c.severity);
  changes.sort((a, b) => order(a) - order(b) || a.operation.localeCompare(b.operation) || a.location.localeCompare(b.location) || a.rule.localeCompare(b.rule));
  const counts = { breaking: 0, warning: 0, info: 0 };
  for (const change of changes) counts[change.severity]++;
  return { base: labels.base, head: labels.head, date: date.toISOString().slice(0, 10), changes, counts };
}

/** Removes changes that a more specific rule, declared with `supersedes`, already reports at the same place. */
function dropSuperseded(changes: Change[], rules: Map<string, Rule>): void {
  const covered = new Set<string>();
  for (const change of changes) {
    for (const general of rules.get(change.rule)?.supersedes ?? []) covered.add(`${general}\u0000${change.operation}\u0000${change.location}`);
  }
  for (let i = changes.length - 1; i >= 0; i--) {
    if (covered.has(`${changes[i].rule}\u0000${changes[i].operation}\u0000${changes[i].location}`)) changes.splice(i, 1);
  }
}
