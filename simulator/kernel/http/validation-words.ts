// What a contract validation failure says to a person (issue 29 item 8): the rule in words, after the field
// name (`screeningAuthority must be CA or US (any case, surrounding spaces allowed)`), never validator jargon
// and never a list longer than ten items. A pattern's words are the contract's own (`x-pattern-in-words`
// beside every `pattern`), so the contract stays the one place a rule is written.
import type { ErrorObject } from 'ajv';
import { isObject, type Json } from '../../../contracts/lib/bundle.js';

/** The contract's vocabulary: the words that say what a `pattern` beside them asks for. */
export const PATTERN_IN_WORDS = 'x-pattern-in-words';

/** At most this many allowed values are listed in a message; longer lists are summarised. */
export const MAX_LISTED = 10;

/** Pattern source -> its words, for every schema of a contract document that carries both. */
export type PatternWords = ReadonlyMap<string, string>;

export function patternWordsOf(doc: Json): PatternWords {
  const words = new Map<string, string>();
  const walk = (node: Json): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    if (typeof node.pattern === 'string' && typeof node[PATTERN_IN_WORDS] === 'string') words.set(node.pattern, node[PATTERN_IN_WORDS]);
    Object.values(node).forEach(walk);
  };
  walk(doc);
  return words;
}

/** `A, B, C`, or the first ten and how many more when the list is longer. */
export function listed(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED).map(String).join(', ');
  return values.length > MAX_LISTED ? `${shown} (and ${values.length - MAX_LISTED} more)` : shown;
}

const FORMATS: Record<string, string> = {
  uuid: 'a UUID (such as 3f6b1c9e-8d2a-4a51-9a7e-2b4d8c1e5f60)',
  'date-time': 'a date and time with its offset (RFC 3339, such as 2026-11-02T14:05:09Z)',
  date: 'a date (YYYY-MM-DD)',
  uri: 'an absolute URI',
  email: 'an e-mail address',
};

const TYPES: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

type Params = Record<string, unknown>;

/** Each JSON Schema keyword's failure in words; a keyword not listed keeps the validator's own message. */
const IN_WORDS: Record<string, (params: Params, words: PatternWords) => string> = {
  required: () => 'is required',
  dependentRequired: () => 'is required',
  additionalProperties: () => 'is not a field this operation takes',
  enum: (p) => `must be one of ${listed(p.allowedValues as unknown[])}`,
  const: (p) => `must be ${String(p.allowedValue)}`,
  type: (p) => `must be ${String(p.type).split(',').map((t) => TYPES[t] ?? t).join(' or ')}`,
  format: (p) => `must be ${FORMATS[String(p.format)] ?? `a valid ${String(p.format)}`}`,
  pattern: (p, words) => words.get(String(p.pattern)) ?? `must match the pattern ${String(p.pattern)}`,
  minLength: (p) => (p.limit === 1 ? 'must not be empty' : `must be at least ${plural(Number(p.limit), 'character')} long`),
  maxLength: (p) => `must be at most ${plural(Number(p.limit), 'character')} long`,
  minimum: (p) => `must be at least ${String(p.limit)}`,
  maximum: (p) => `must be at most ${String(p.limit)}`,
  exclusiveMinimum: (p) => `must be greater than ${String(p.limit)}`,
  exclusiveMaximum: (p) => `must be less than ${String(p.limit)}`,
  multipleOf: (p) => `must be a multiple of ${String(p.multipleOf)}`,
  minItems: (p) => `must list at least ${plural(Number(p.limit), 'item')}`,
  maxItems: (p) => `must list at most ${plural(Number(p.limit), 'item')}`,
  uniqueItems: (p) => `must not list the same item twice (items ${String(p.j)} and ${String(p.i)} are equal)`,
  minProperties: (p) => `must have at least ${plural(Number(p.limit), 'field')}`,
  maxProperties: (p) => `must have at most ${plural(Number(p.limit), 'field')}`,
};

/** One validator error in words (what follows the field's name in the message). */
export function inWords(error: ErrorObject, words: PatternWords): string {
  const say = IN_WORDS[error.keyword];
  return say ? say(error.params as Params, words) : error.message ?? 'is invalid';
}
