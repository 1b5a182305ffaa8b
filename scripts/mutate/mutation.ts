// One source mutation of the simulator, and how it is applied to a copy of the tree. A mutation is a
// unique snippet of one file and its replacement: the snippet must occur exactly once, so that a change of
// the simulator's code that moves or duplicates it makes the mutation set fail loudly instead of quietly
// mutating something else (or nothing).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { contractOf, isHeld, specRules, type SpecRule } from '../../conformance/spec-rules/index.js';

/** What kind of vendor mistake a mutation stands for (README "Families"). */
const FAMILIES = [
  'auth',
  'validation',
  'idempotency',
  'pagination',
  'state-machine',
  'domain-rule',
  'response-shape',
  'errors',
  'webhooks',
  'uploads',
  'isolation',
  'limits',
] as const;
type Family = (typeof FAMILIES)[number];

/** Why a mutant that survives may do so: filled in after a run showed it, never guessed beforehand. */
interface SurvivorNote {
  /** invisible: no HTTP client can tell; equivalent: the behaviour does not change; acceptable: the spec
   * allows the mutated behaviour; gap: the suite should catch it and does not (the lead decides). */
  kind: 'invisible' | 'equivalent' | 'acceptable' | 'gap';
  why: string;
}

export interface Mutation {
  /** Stable id, `<family>.<what>`: used by `--only`, resumed runs and the reports. */
  id: string;
  family: Family;
  /** Path from the repository root, under `simulator/` or `contracts/lib/` (code the simulator runs; the suite runs the working tree's). */
  file: string;
  /** A snippet that occurs exactly once in the file. */
  find: string;
  replace: string;
  /** Why a client sees the change over HTTP (spec section), the reason the mutation counts. */
  visible: string;
  /** The spec-rule inventory's ids (conformance/spec-rules) whose sentence the edit breaks. The rule-keyed
   * run gives the mutant exactly the checks that hold these rules, so a kill means the rule's own checks saw
   * it. Empty only with `sandboxDefined`. */
  rules: string[];
  /** Set when the edit breaks no sentence of the spec, only behaviour the sandbox defines (or a value the
   * spec leaves open): why, and the checks that hold that behaviour. Reported apart, not in the rule score. */
  sandboxDefined?: { why: string; checks: string[] };
  /** Set only for a mutant a run showed surviving. */
  survives?: SurvivorNote;
}

export class MutationError extends Error {}

/** Where mutated files may live: the code the simulator runs from the tree copy. */
const MUTABLE_ROOTS = ['simulator/', 'contracts/lib/'];

function countOccurrences(text: string, snippet: string): number {
  if (snippet === '') return 0;
  let count = 0;
  for (let at = text.indexOf(snippet); at !== -1; at = text.indexOf(snippet, at + 1)) count++;
  return count;
}

/** The file's text with the mutation applied; throws a MutationError unless the snippet occurs exactly once. */
export function mutatedText(original: string, mutation: Mutation): string {
  const count = countOccurrences(original, mutation.find);
  if (count !== 1) throw new MutationError(`${mutation.id}: the snippet occurs ${count} times in ${mutation.file} (must be exactly once): ${JSON.stringify(mutation.find)}`);
  if (mutation.find === mutation.replace) throw new MutationError(`${mutation.id}: the replacement equals the snippet`);
  return original.replace(mutation.find, () => mutation.replace);
}

/**
 * Applies the mutation to the tree at `treeDir` (a copy, never the working tree) and returns the function
 * that puts the original file back.
 */
export function applyMutation(treeDir: string, mutation: Mutation): () => void {
  // The simulator also runs contracts/lib (request values, shared with the proxy); the suite imports the
  // working tree's copy, never the mutated one, so a mutation there changes only the server.
  if (!MUTABLE_ROOTS.some((root) => mutation.file.startsWith(root))) throw new MutationError(`${mutation.id}: only the simulator's sources (${MUTABLE_ROOTS.join(', ')}) are mutated, not ${mutation.file}`);
  const file = path.join(treeDir, mutation.file);
  let original: string;
  try {
    original = readFileSync(file, 'utf8');
  } catch {
    throw new MutationError(`${mutation.id}: no file ${mutation.file}`);
  }
  writeFileSync(file, mutatedText(original, mutation));
  return () => writeFileSync(file, original);
}

/** Problems of the set as data: duplicate ids, unknown families, rule ids the inventory does not hold,
 * snippets not unique in the given tree. */
export function validateMutations(mutations: readonly Mutation[], treeDir: string, rules: readonly SpecRule[] = specRules): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const byId = new Map(rules.map((r) => [r.id, r]));
  for (const m of mutations) {
    for (const id of m.rules ?? []) {
      const rule = byId.get(id);
      if (!rule) problems.push(`${m.id}: unknown rule id ${id} (not in conformance/spec-rules)`);
      // A rule no check holds gives the rule-keyed run nothing to run: such a mutant measures nothing.
      else if (!isHeld(rule)) problems.push(`${m.id}: rule ${id} is not held by any check (unheld or gap): the rule-keyed run has no check to give it`);
      // The run targets contract v1.3.0 (run-mutant.ts): another contract's checks are not in its registry.
      else if (contractOf(rule) !== 'v1.3.0') problems.push(`${m.id}: rule ${id} is held by the ${contractOf(rule)} suite, which a mutation run (contract v1.3.0) does not run`);
    }
    if (!m.rules?.length && !m.sandboxDefined) problems.push(`${m.id}: names no rule it breaks (rules) and does not say it is sandbox-defined (sandboxDefined)`);
    if (m.rules?.length && m.sandboxDefined) problems.push(`${m.id}: names rules and says it is sandbox-defined: one or the other`);
    if (m.sandboxDefined && (!m.sandboxDefined.why.trim() || !m.sandboxDefined.checks.length)) problems.push(`${m.id}: sandboxDefined needs a reason and the checks holding the behaviour`);
    if (seen.has(m.id)) problems.push(`${m.id}: duplicate id`);
    seen.add(m.id);
    if (!(FAMILIES as readonly string[]).includes(m.family)) problems.push(`${m.id}: unknown family ${m.family}`);
    if (!m.id.startsWith(`${m.family}.`)) problems.push(`${m.id}: the id must start with its family "${m.family}."`);
    if (!m.visible.trim()) problems.push(`${m.id}: says nothing about why it is visible over HTTP`);
    try {
      mutatedText(readFileSync(path.join(treeDir, m.file), 'utf8'), m);
    } catch (error) {
      problems.push(error instanceof MutationError ? error.message : `${m.id}: cannot read ${m.file}`);
    }
  }
  return problems;
}

/** The checks a rule-keyed run gives the mutant: the union of the `checks` of its rules in the inventory
 * (or of its sandboxDefined checks), sorted. */
export function checksOf(mutation: Mutation, rules: readonly SpecRule[] = specRules): string[] {
  if (mutation.sandboxDefined) return [...new Set(mutation.sandboxDefined.checks)].sort();
  const byId = new Map(rules.map((r) => [r.id, r]));
  return [...new Set(mutation.rules.flatMap((id) => { const rule = byId.get(id); return rule && isHeld(rule) ? rule.checks : []; }))].sort();
}

/** `--only`: mutation ids, families, or inventory rule ids (the mutations naming that rule), comma-separated. */
export function selectMutations(mutations: readonly Mutation[], only: string[] | undefined): Mutation[] {
  if (!only?.length) return [...mutations];
  const matches = (m: Mutation, o: string) => m.id === o || m.family === o || m.rules.includes(o);
  const unknown = only.filter((o) => !mutations.some((m) => matches(m, o)));
  if (unknown.length) throw new MutationError(`--only matches no mutation id, family or rule: ${unknown.join(', ')}`);
  return mutations.filter((m) => only.some((o) => matches(m, o)));
}
