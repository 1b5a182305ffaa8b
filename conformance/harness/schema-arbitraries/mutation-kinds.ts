// The kinds of mutation `invalidVariants` makes, the order a client tries them in (MUTATION_PRIORITY), and
// how each is named in reports.

export type MutationKind =
  | 'wrong-type'
  | 'not-integer'
  | 'below-minimum'
  | 'above-maximum'
  | 'exclusive-minimum'
  | 'exclusive-maximum'
  | 'not-in-enum'
  | 'const-violated'
  | 'too-short'
  | 'too-long'
  | 'pattern-mismatch'
  | 'bad-format'
  | 'missing-required'
  | 'additional-property'
  | 'bad-property-name'
  | 'dependent-required'
  | 'forbidden-combination'
  | 'conditional-required'
  | 'none-of-alternatives'
  | 'several-alternatives'
  | 'too-few-items'
  | 'too-many-items'
  | 'duplicate-items';

/** Mutations that break a bound or a required key first: what servers most often forget to enforce. */
export const MUTATION_PRIORITY: MutationKind[] = [
  'below-minimum',
  'above-maximum',
  'exclusive-minimum',
  'missing-required',
  'not-in-enum',
  'too-long',
  'pattern-mismatch',
  'bad-format',
  'dependent-required',
  'forbidden-combination',
  'conditional-required',
  'too-short',
  'wrong-type',
  'not-integer',
  'const-violated',
  'additional-property',
  'bad-property-name',
  'too-few-items',
  'too-many-items',
  'duplicate-items',
  'none-of-alternatives',
  'several-alternatives',
  'exclusive-maximum',
];

/** How each kind reads in a variant's name. */
export const KIND_TEXT: Record<MutationKind, string> = {
  'wrong-type': 'wrong type',
  'not-integer': 'not an integer',
  'below-minimum': 'below minimum',
  'above-maximum': 'above maximum',
  'exclusive-minimum': 'exclusiveMinimum violated',
  'exclusive-maximum': 'exclusiveMaximum violated',
  'not-in-enum': 'not in enum',
  'const-violated': 'const violated',
  'too-short': 'too short',
  'too-long': 'too long',
  'pattern-mismatch': 'pattern mismatch',
  'bad-format': 'bad format',
  'missing-required': 'missing required property',
  'additional-property': 'additionalProperties:false violated',
  'bad-property-name': 'property name not allowed',
  'dependent-required': 'dependentRequired violated',
  'forbidden-combination': 'forbidden combination',
  'conditional-required': 'conditionally required property missing',
  'none-of-alternatives': 'matches none of the alternatives',
  'several-alternatives': 'matches several oneOf alternatives',
  'too-few-items': 'too few items',
  'too-many-items': 'too many items',
  'duplicate-items': 'duplicate items',
};

/** Rules over several fields at once: a refusal need not name one of them (spec 7 "where applicable"). */
export const CROSS_FIELD = new Set<MutationKind>(['forbidden-combination', 'none-of-alternatives', 'several-alternatives']);
