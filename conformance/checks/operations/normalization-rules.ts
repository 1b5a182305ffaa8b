// The normalization rules the spec (and the contract's schema text) states for request inputs: values a
// server must accept because it normalizes them, and defaults it applies when an input is omitted. Each rule
// names the body field or parameter it is about; it applies to every operation of the contract that takes
// that input. `values` are sent as given (`undefined` = the input is left out).
//
// | rule                                   | spec          | what must be accepted                                  |
// |----------------------------------------|---------------|--------------------------------------------------------|
// | screening-authority.trimmed            | 4.2, 4.3, 4.4 | `screeningAuthority` with surrounding whitespace       |
// | screening-authority.case-insensitive   | 4.2, 4.3, 4.4 | `screeningAuthority` in lower or mixed case            |
// | screening-authority.blank-defaults-ca  | 4.2           | `screeningAuthority` blank (empty or spaces): CA       |
// | screening-authority.omitted-defaults-ca| 4.2           | `screeningAuthority` left out: CA                      |
// | run-policy.omitted-defaults-always     | 4.2, 4.3      | `runPolicy` left out: `always`                         |
// | source-adapter.omitted-defaults        | 4.3           | `sourceAdapter` left out: `catalog-excel`              |
// | shipping-cost.omitted-defaults-zero    | 4.6           | `shippingCost` left out: 0                             |
// | report-format.omitted-defaults-json    | 4.2           | `format` left out: the JSON report                     |
// | pagination.omitted-defaults            | 8.6           | `limit` / `offset` left out: 50 / 0                    |
// | landed-cost.legacy-aliases             | 4.6 rule 7    | legacy aliases detected, not rejected: owned by the    |
// |                                        |               | check landed-cost.legacy-alias-hint (not sent here)    |
//
// The ScreeningAuthority schema of the contract states the first three rules for every operation that takes
// it ("any value given must normalize (trimmed, case-insensitive) to CA or US"), so they apply to the feed
// apply body too; there the field is required, so "omitted" does not apply.

export interface NormalizationRule {
  id: string;
  /** Where the spec states it. */
  section: string;
  /** The input it is about: a body field or a query parameter. */
  input: { in: 'body' | 'query'; name: string };
  /** What the spec says, for messages. */
  statement: string;
  /** Values the rule says are served (undefined: the input left out). Empty: exercised by another check. */
  values: Array<string | undefined>;
  /** The check that exercises it, when it is not sent by operations.normalizations. */
  exercisedBy?: string;
}

const NORMALIZATION_RULES: readonly NormalizationRule[] = [
  {
    id: 'screening-authority.trimmed',
    section: 'spec 4.2, 4.3, 4.4',
    input: { in: 'body', name: 'screeningAuthority' },
    statement: 'a screeningAuthority is trimmed before it is read as CA or US',
    values: [' US ', '\tCA', 'US  '],
  },
  {
    id: 'screening-authority.case-insensitive',
    section: 'spec 4.2, 4.3, 4.4',
    input: { in: 'body', name: 'screeningAuthority' },
    statement: 'a screeningAuthority is read case-insensitively as CA or US',
    values: ['us', 'ca', 'Us', 'cA'],
  },
  {
    id: 'screening-authority.blank-defaults-ca',
    section: 'spec 4.2',
    input: { in: 'body', name: 'screeningAuthority' },
    statement: 'a blank screeningAuthority defaults to CA',
    values: ['', '   '],
  },
  {
    id: 'screening-authority.omitted-defaults-ca',
    section: 'spec 4.2',
    input: { in: 'body', name: 'screeningAuthority' },
    statement: 'an omitted screeningAuthority defaults to CA',
    values: [undefined],
  },
  {
    id: 'run-policy.omitted-defaults-always',
    section: 'spec 4.2, 4.3',
    input: { in: 'body', name: 'runPolicy' },
    statement: 'an omitted runPolicy defaults to always',
    values: [undefined],
  },
  {
    id: 'source-adapter.omitted-defaults',
    section: 'spec 4.3',
    input: { in: 'body', name: 'sourceAdapter' },
    statement: 'an omitted sourceAdapter defaults to catalog-excel',
    values: [undefined],
  },
  {
    id: 'shipping-cost.omitted-defaults-zero',
    section: 'spec 4.6',
    input: { in: 'body', name: 'shippingCost' },
    statement: 'an omitted shippingCost defaults to 0',
    values: [undefined],
  },
  {
    id: 'report-format.omitted-defaults-json',
    section: 'spec 4.2',
    input: { in: 'query', name: 'format' },
    statement: 'an omitted report format defaults to json',
    values: [undefined],
  },
  {
    id: 'pagination.limit-omitted-defaults',
    section: 'spec 8.6',
    input: { in: 'query', name: 'limit' },
    statement: 'an omitted limit defaults to 50',
    values: [undefined],
  },
  {
    id: 'pagination.offset-omitted-defaults',
    section: 'spec 8.6',
    input: { in: 'query', name: 'offset' },
    statement: 'an omitted offset defaults to 0',
    values: [undefined],
  },
  {
    id: 'landed-cost.legacy-aliases',
    section: 'spec 4.6 rule 7',
    input: { in: 'body', name: 'shipping' },
    statement: 'legacy aliases are detected, not rejected',
    values: [],
    exercisedBy: 'landed-cost.legacy-alias-hint',
  },
];

/** The rules that apply to an operation taking these inputs (a required input cannot be left out). */
export function rulesFor(inputs: { query: Map<string, boolean>; body: Map<string, boolean> }): NormalizationRule[] {
  return NORMALIZATION_RULES.filter((rule) => {
    const required = (rule.input.in === 'body' ? inputs.body : inputs.query).get(rule.input.name);
    if (required === undefined) return false;
    return !(required && rule.values.every((v) => v === undefined) && rule.values.length > 0);
  });
}
