// Held rules of the spec inventory that no source edit of the simulator can break in a way a client sees, each
// with why: reviewed by hand, so that the coverage figure of `npm run conform:mutate` (held rules a source edit
// can break that have a mutation) counts only rules a mutation could stand for. A rule listed here must be
// held (its checks exist) and no mutation may name it (validateNotBreakable).
import { isHeld, specRules, type SpecRule } from '../../conformance/spec-rules/index.js';
import type { Mutation } from './mutation.js';

export const NOT_BREAKABLE: Readonly<Record<string, string>> = {
  // Enforced twice: the contract's schema (kernel/http/validate-request.ts) and again in the route, so that a
  // handler never quotes half a quantity. A mutation edits one snippet: either place alone still answers 400.
  '4.6.landed-cost.quantity-pair': 'refused twice, by the contract schema (dependentRequired) and again in landed-cost.routes.ts; a one-snippet edit leaves the other refusal (400 either way)',
  '4.6.rule1.provider-with-quantity': 'refused twice, by the contract schema (not: required [provider, quantity]) and again in landed-cost.routes.ts; a one-snippet edit leaves the other refusal',
  // The webhook fields of an enqueue body: the contract's schema, then webhook-config.ts reads them again.
  '6.config.url-required': 'refused twice, by the contract schema and again in webhook-config.ts readForm/readUrl; a one-snippet edit leaves the other refusal',
  '6.config.secret-max-512': 'refused twice, by the contract schema (maxLength 512) and again in webhook-config.ts readSecret; a one-snippet edit leaves the other refusal',
  '6.config.events-values': 'refused twice, by the contract schema (enum) and again in webhook-config.ts readEvents; a one-snippet edit leaves the other refusal',
  // Every upload's form: the contract's schema (required: [file]) and again kernel/uploads/uploaded-file.ts
  // acceptUploadedFile, which every upload route calls before it stores anything.
  '4.3.upload.file-required': 'refused twice, by the contract schema (required: [file] on every upload form, validate-request.ts) and again in acceptUploadedFile (uploaded-file.ts: no file part, 400 naming file); a one-snippet edit leaves the other refusal',
};

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
