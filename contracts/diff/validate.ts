// The gate compares contracts, so it first makes sure each side is one (issue 30 item 6). A document whose
// `$ref` points to nothing, or that breaks the OpenAPI schema, is no contract: comparing it would read the
// dangling schema as "any value" and report invented breaking changes (exit 1) where the honest answer is
// "this input is not a contract" (exit 2, saying where and why). Validation is swagger-parser's own
// (`SwaggerParser.validate`: the OpenAPI 3.0/3.1 JSON schema plus its semantic checks); local references
// are looked at first, with the same resolver the comparison uses (lib/refs.ts), so a dangling one is
// reported at the place the `$ref` sits, not only by the pointer it names.
import SwaggerParser from '@apidevtools/swagger-parser';
import { createHash } from 'node:crypto';
import { isObject, type Json, type OpenApiDocument } from '../lib/bundle.js';
import { resolveRef } from '../lib/refs.js';

/** Why a document is not a contract: where (a JSON pointer into it) and what is wrong there. */
export interface ContractProblem {
  pointer: string;
  reason: string;
}

const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every local `$ref` (`#...`) of `doc` that resolves to nothing, with the pointer of the node holding it. */
export function danglingRefs(doc: OpenApiDocument): ContractProblem[] {
  const found: ContractProblem[] = [];
  const walk = (node: Json, pointer: string) => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${pointer}/${index}`));
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#') && resolveRef(doc, node.$ref) === undefined) {
      found.push({ pointer: pointer || '#', reason: `$ref "${node.$ref}" points to nothing in the document` });
    }
    for (const [key, value] of Object.entries(node)) if (key !== '$ref') walk(value, `${pointer}/${escapeToken(key)}`);
  };
  walk(doc as unknown as Json, '#');
  return found;
}

interface AjvDetail {
  instancePath?: string;
  message?: string;
}

/** swagger-parser's refusal as pointer and reason: schema errors carry `details`, a missing pointer its target. */
function refusalOf(error: unknown): ContractProblem[] {
  const e = error as { message?: string; details?: AjvDetail[]; targetRef?: string; path?: string };
  if (Array.isArray(e.details) && e.details.length) {
    return e.details.map((detail) => ({ pointer: `#${detail.instancePath ?? ''}`, reason: detail.message ?? 'breaks the OpenAPI schema' }));
  }
  const message = String(e.message ?? error).trim();
  // "Validation failed. /paths/~1a/get has ..." (semantic checks) names the place in its text.
  const place = /(#?\/paths\/\S+|#\/components\/\S+)/.exec(message)?.[1];
  return [{ pointer: place ? (place.startsWith('#') ? place : `#${place}`) : (e.targetRef ?? '#'), reason: message.split('\n')[0]! }];
}

/** Verdicts by document text: a side compared with itself, or the same version in several gate runs, is
 *  validated once (swagger-parser's validation costs about as much as bundling the contract). */
const verdicts = new Map<string, Promise<ContractProblem[]>>();
const VERDICTS_KEPT = 16;

/** What makes `doc` not a contract (empty when it is one): dangling local references, then swagger-parser's validation. */
export function contractProblems(doc: OpenApiDocument): Promise<ContractProblem[]> {
  const key = createHash('sha256').update(JSON.stringify(doc)).digest('hex');
  let verdict = verdicts.get(key);
  if (!verdict) {
    if (verdicts.size >= VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!);
    verdict = problemsOf(doc);
    verdicts.set(key, verdict);
  }
  return verdict;
}

async function problemsOf(doc: OpenApiDocument): Promise<ContractProblem[]> {
  const dangling = danglingRefs(doc);
  if (dangling.length) return dangling;
  try {
    // validate() dereferences the document in place: it gets a copy, the comparison keeps the original.
    await SwaggerParser.validate(structuredClone(doc) as never);
    return [];
  } catch (error) {
    return refusalOf(error);
  }
}

/** The problems as the gate prints them: the first few, one per line, and how many more there are. */
export function describeProblems(problems: ContractProblem[], shown = 5): string {
  const lines = problems.slice(0, shown).map((p) => `  at ${p.pointer}: ${p.reason}`);
  if (problems.length > shown) lines.push(`  ... and ${problems.length - shown} more`);
  return lines.join('\n');
}
