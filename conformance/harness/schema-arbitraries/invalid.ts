// Invalid variants: named mutations of a valid value, each breaking exactly one rule of the schema (so a
// server must refuse it), filtered through the contract's ajv and deduplicated.
import type { Json, OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { CROSS_FIELD, KIND_TEXT, type MutationKind } from './mutation-kinds.js';
import { mutations } from './mutations.js';
import { contractSchemasOf, type Gen, type GenerateOptions } from './resolve.js';
import { sampleValid } from './valid.js';

export interface InvalidVariant {
  /** What is broken, for reports: `limit: above maximum (101)`. */
  name: string;
  kind: MutationKind;
  /** Where the mutation is, from the root value (property names and array indexes); [] is the value itself. */
  path: Array<string | number>;
  /** The whole value with the mutation applied. */
  value: unknown;
  /** Top-level names a server may give in `details.field` for this refusal; [] when no field is named. */
  fields: string[];
  /** A schema on the way to the mutation is `x-sandbox-defined` (the sandbox's choice, not the spec's). */
  sandboxDefined: boolean;
}

export interface VariantOptions extends GenerateOptions {
  /** The valid value to mutate (default: one drawn with `seed`). Ignored when the schema refuses it. */
  base?: unknown;
  seed?: number;
  /** Keep mutations the schema still accepts (to measure the generator; never to send). */
  unfiltered?: boolean;
}

/**
 * Named mutations of a valid value, each breaking one rule of the schema, all refused by the contract's
 * ajv (a mutation the schema still accepts, e.g. one that happens to satisfy another anyOf branch, is left
 * out). Deterministic for a given seed.
 */
export function invalidVariants(doc: OpenApiDocument, schema: Json, options: VariantOptions = {}): InvalidVariant[] {
  const gen: Gen = { doc, schemas: contractSchemasOf(doc, options.schemas), deprecated: options.deprecated ?? false };
  const seed = options.seed ?? 0;
  const validate = gen.schemas.validator(schema);
  const base = options.base !== undefined && validate(options.base) ? options.base : sampleValid(doc, schema, seed, { schemas: gen.schemas });
  const locals = mutations(gen, schema, base, 0, false, seed);
  const seen = new Set<string>();
  const out: InvalidVariant[] = [];
  for (const local of locals) {
    const key = JSON.stringify(local.value) ?? 'undefined';
    if (seen.has(key) || local.value === undefined || (!options.unfiltered && validate(local.value))) continue;
    seen.add(key);
    const where = pathText(local.path);
    out.push({
      name: `${where || '(value)'}: ${KIND_TEXT[local.kind]}${local.detail ? ` (${local.detail})` : ''}`,
      kind: local.kind,
      path: local.path,
      value: local.value,
      fields: CROSS_FIELD.has(local.kind) ? [] : local.fields ?? (typeof local.path[0] === 'string' ? [local.path[0]] : []),
      sandboxDefined: local.sandboxDefined,
    });
  }
  return out;
}

export function pathText(path: Array<string | number>): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part), '');
}
