// Held rules of the spec inventory that no source edit of the simulator can break in a way a client sees, each
// with why: reviewed by hand, so that the coverage figure of `npm run conform:mutate` (held rules a source edit
// can break that have a mutation) counts only rules a mutation could stand for. A rule listed here must be
// held (its checks exist) and no mutation may name it (validateNotBreakable).
import { isHeld, specRules, type SpecRule } from '../../conformance/spec-rules/index.js';
import type { Mutation } from './mutation.js';

export const NOT_BREAKABLE: Readonly<Record<string, string>> = {};

/** Problems of the list: unknown or unheld rule ids, rules a mutation names (then it is breakable). */
export function validateNotBreakable(list: Readonly<Record<string, string>>, mutations: readonly Pick<Mutation, 'id' | 'rules'>[], rules: readonly SpecRule[] = specRules): string[] {
  const byId = new Map(rules.map((r) => [r.id, r]));
  const problems: string[] = [];
  for (const [id, why] of Object.entries(list)) {
    const rule = byId.get(id);
    if (!rule) problems.push(`not-breakable: unknown rule id ${id}`);
    else if (!isHeld(rule)) problems.push(`not-breakable: ${id} is not held (only held rules are in the coverage figure)`);
    if (!why.trim()) problems.push(`not-breakable: ${id} says not why`);
    const naming = mutations.filter((m) => m.rules.includes(id)).map((m) => m.id);
    if (naming.length) problems.push(`not-breakable: ${id} is named by ${naming.join(', ')}: a mutation breaks it`);
  }
  return problems;
}
