// Property tests of the schema generators over the real contract: every generated valid value validates
// with the contract's ajv, every invalid variant is refused by it, for every schema of every version
// (component schemas, parameter schemas, request bodies).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS, isObject, loadContract, type Json, type OpenApiDocument } from '../../contracts/lib/bundle.js';
import { deref, listOperations } from '../../contracts/lib/operations.js';
import { createContractSchemas, formatAjvErrors, type ContractSchemas } from '../../contracts/lib/schemas.js';
import { invalidVariants, validValue, type MutationKind } from './schema-arbitraries.js';

interface Entry {
  version: string;
  name: string;
  doc: OpenApiDocument;
  schema: Json;
  /** An independent ajv of the same document: the judge is not the generator's own instance. */
  judge: ContractSchemas;
}

function schemasOf(version: string): Entry[] {
  const doc = loadContract(version);
  const judge = createContractSchemas(doc);
  const entries: Entry[] = [];
  const components = isObject(doc.components.schemas) ? doc.components.schemas : {};
  for (const name of Object.keys(components)) entries.push({ version, name, doc, judge, schema: { $ref: `#/components/schemas/${name}` } });
  for (const op of listOperations(doc)) {
    for (const raw of op.parameters) {
      const param = deref(doc, raw);
      if (isObject(param) && param.schema !== undefined) entries.push({ version, name: `${op.operationId} ${param.in} ${param.name}`, doc, judge, schema: param.schema });
    }
    const body = deref(doc, op.operation.requestBody ?? null);
    if (isObject(body) && isObject(body.content)) {
      for (const [type, media] of Object.entries(body.content)) {
        if (isObject(media) && media.schema !== undefined) entries.push({ version, name: `${op.operationId} body ${type}`, doc, judge, schema: media.schema });
      }
    }
  }
  return entries;
}

const ALL = CONTRACT_VERSIONS.flatMap(schemasOf);
const REQUESTS = ALL.filter((e) => / (body|query|path|header) /.test(`${e.name} `));
const find = (version: string, name: string) => ALL.find((e) => e.version === version && e.name === name)!;
const kindsOf = (entry: Entry, seed = 1) => new Set(invalidVariants(entry.doc, entry.schema, { seed }).map((v) => v.kind));

describe('validValue', () => {
  it('covers many schemas: every component, parameter and request-body schema of every version', () => {
    expect(ALL.length).toBeGreaterThan(300);
    expect(REQUESTS.length).toBeGreaterThan(100);
  });

  it('generates only values the contract accepts (every schema, every version)', () => {
    const failures: string[] = [];
    for (const entry of ALL) {
      const validate = entry.judge.validator(entry.schema);
      fc.assert(
        fc.property(validValue(entry.doc, entry.schema), (value) => {
          if (!validate(value)) failures.push(`${entry.version} ${entry.name}: ${JSON.stringify(value).slice(0, 200)}: ${formatAjvErrors(validate.errors)}`);
          return true;
        }),
        { seed: 20261121, numRuns: 15 },
      );
    }
    expect(failures).toEqual([]);
  });

  it('as one property over randomly chosen schemas', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ALL).chain((entry) => validValue(entry.doc, entry.schema).map((value) => [entry, value] as const)),
        ([entry, value]) => entry.judge.validator(entry.schema)(value) === true,
      ),
      { seed: 7, numRuns: 400 },
    );
  });

  it('generates the formats the contract uses in their own syntax', () => {
    const doc = loadContract('v1.2.0');
    const sample = (schema: Json) => fc.sample(validValue(doc, schema), { seed: 3, numRuns: 20 });
    expect(sample({ type: 'string', format: 'uuid' }).every((v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(String(v)))).toBe(true);
    expect(sample({ type: 'string', format: 'date-time' }).every((v) => !Number.isNaN(Date.parse(String(v))))).toBe(true);
    // Reserved domains only (RFC 2606): a server that follows a generated URL reaches nobody.
    expect(sample({ type: 'string', format: 'uri' }).every((v) => /^https:\/\/[a-z0-9]+\.example\//.test(String(v)))).toBe(true);
    expect(sample({ type: 'string', format: 'email' }).every((v) => /@[a-z0-9]+\.example$/.test(String(v)))).toBe(true);
    // A lookahead pattern (HS codes) is generated without lookahead support in fast-check.
    expect(sample({ $ref: '#/components/schemas/TradeHsCode' }).length).toBe(20);
  });

  it('respects dependentRequired, `not: { required }` and if/then (landed cost, review decisions)', () => {
    const landed = find('v1.3.0', 'LandedCostRequest');
    for (const value of fc.sample(validValue(landed.doc, landed.schema), { seed: 11, numRuns: 200 }) as Array<Record<string, unknown>>) {
      expect('quantity' in value).toBe('quantityUnit' in value);
      expect('provider' in value && 'quantity' in value).toBe(false);
      // Legacy aliases are never generated (a client sends canonical fields).
      expect(Object.keys(value).some((k) => ['shipping', 'freight', 'currencyCode', 'origin'].includes(k))).toBe(false);
    }
    const decision = find('v1.3.0', 'ClassificationReviewDecisionRequest');
    const decisions = fc.sample(validValue(decision.doc, decision.schema), { seed: 11, numRuns: 100 }) as Array<Record<string, unknown>>;
    expect(decisions.filter((d) => d.decision === 'override').every((d) => typeof d.hsCode === 'string')).toBe(true);
    expect(decisions.some((d) => d.decision === 'override')).toBe(true);
  });
});

describe('invalidVariants', () => {
  it('gives only values the contract refuses, from any valid base and seed (request schemas)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...REQUESTS).chain((entry) => fc.tuple(fc.constant(entry), validValue(entry.doc, entry.schema), fc.integer({ min: 0, max: 1000 }))),
        ([entry, base, seed]) => {
          const validate = entry.judge.validator(entry.schema);
          const variants = invalidVariants(entry.doc, entry.schema, { base, seed });
          for (const variant of variants) {
            if (validate(variant.value)) throw new Error(`${entry.version} ${entry.name}: ${variant.name} is accepted: ${JSON.stringify(variant.value)}`);
          }
          return new Set(variants.map((v) => JSON.stringify(v.value))).size === variants.length;
        },
      ),
      { seed: 20261121, numRuns: 300 },
    );
  });

  it('mutates correctly before any filtering: request schemas need none, the rest almost none (alternatives)', () => {
    let total = 0;
    const accepted: string[] = [];
    for (const entry of ALL) {
      const validate = entry.judge.validator(entry.schema);
      for (const variant of invalidVariants(entry.doc, entry.schema, { seed: 5, unfiltered: true })) {
        total++;
        if (validate(variant.value)) accepted.push(`${entry.version} ${entry.name}: ${variant.name}`);
      }
    }
    expect(total).toBeGreaterThan(3000);
    expect(accepted.filter((name) => REQUESTS.some((r) => name.startsWith(`${r.version} ${r.name}:`)))).toEqual([]);
    // The only ones: a "wrong type" that another oneOf branch takes (ErrorDetails.required: string or array).
    expect(accepted.length / total).toBeLessThan(0.01);
    expect(accepted.every((name) => name.includes('required: wrong type'))).toBe(true);
  });

  it('names the mutation kinds the contract calls for', () => {
    const limit = find('v1.3.0', 'listJobs query limit');
    const limitVariants = invalidVariants(limit.doc, limit.schema, { seed: 1 });
    expect(limitVariants.map((v) => [v.kind, v.value])).toEqual(
      expect.arrayContaining([
        ['below-minimum', 0],
        ['above-maximum', 101],
        ['not-integer', 1.5],
        ['wrong-type', 'wrong-type'],
      ]),
    );
    const expectations: Array<[string, string, MutationKind[]]> = [
      ['v1.3.0', 'getJob path id', ['bad-format']],
      ['v1.3.0', 'listJobs query status', ['not-in-enum']],
      ['v1.3.0', 'LandedCostRequest', ['missing-required', 'dependent-required', 'forbidden-combination', 'exclusive-minimum', 'pattern-mismatch', 'wrong-type', 'not-in-enum']],
      ['v1.3.0', 'FeedApplyRequest', ['additional-property', 'too-few-items', 'pattern-mismatch', 'too-short']],
      ['v1.3.0', 'ClaimExternalReferenceRequest', ['pattern-mismatch', 'too-short', 'missing-required']],
      ['v1.3.0', 'WebhookConfig', ['too-long', 'duplicate-items', 'bad-format', 'dependent-required', 'too-few-items']],
      ['v1.3.0', 'ClassificationApplyRequest', ['several-alternatives', 'none-of-alternatives']],
      ['v1.3.0', 'ClassificationReviewDecisionRequest', ['conditional-required', 'too-long']],
      ['v1.3.0', 'ClassificationBatchRequest', ['too-many-items']],
      ['v1.3.0', 'FindingCreditRequest', ['exclusive-minimum', 'bad-format']],
      ['v1.3.0', 'BillingSetupRequest', ['bad-format']],
      ['v1.3.0', 'AmountsByFinding', ['below-minimum', 'bad-property-name']],
      ['v1.3.0', 'TokenResponse', ['const-violated', 'missing-required']],
      ['v1.2.0', 'SignupLegalAcceptance', ['bad-format', 'missing-required']],
      ['v1.2.0', 'VerifySignupEmailRequest', ['pattern-mismatch']],
    ];
    for (const [version, name, kinds] of expectations) {
      const found = kindsOf(find(version, name));
      expect({ schema: name, missing: kinds.filter((k) => !found.has(k)) }).toEqual({ schema: name, missing: [] });
    }
  });

  it('names the field a server should give in details.field (top-level names; none for cross-field rules)', () => {
    const credit = find('v1.3.0', 'FindingCreditRequest');
    const variants = invalidVariants(credit.doc, credit.schema, { seed: 1 });
    expect(variants.find((v) => v.name === 'confirmation.source: missing required property')?.fields).toEqual(['confirmation']);
    expect(variants.find((v) => v.kind === 'exclusive-minimum')?.fields).toEqual(['amount']);
    const landed = find('v1.3.0', 'LandedCostRequest');
    const landedVariants = invalidVariants(landed.doc, landed.schema, { seed: 1 });
    expect(landedVariants.find((v) => v.kind === 'forbidden-combination')?.fields).toEqual([]);
    expect(landedVariants.find((v) => v.kind === 'dependent-required')?.fields).toEqual(expect.arrayContaining(['quantity', 'quantityUnit']));
    const root = landedVariants.find((v) => v.path.length === 0 && v.kind === 'wrong-type');
    expect(root?.fields).toEqual([]);
  });

  it('marks mutations inside sandbox-defined shapes', () => {
    const batch = find('v1.3.0', 'FindingBatchRequest');
    expect(invalidVariants(batch.doc, batch.schema, { seed: 1 }).every((v) => v.sandboxDefined)).toBe(true);
    // A body the spec fixes (4.5, 2.6): only the length caps the contract added on its strings are ours.
    const credit = find('v1.3.0', 'FindingCreditRequest');
    const creditVariants = invalidVariants(credit.doc, credit.schema, { seed: 1 });
    expect(creditVariants.filter((v) => v.sandboxDefined).map((v) => `${v.path.join('.')} ${v.kind}`).sort()).toEqual([
      'confirmation.artifactUrl too-long',
      'confirmation.notes too-long',
      'confirmation.referenceId too-long',
      'confirmation.source too-long',
    ]);
    expect(creditVariants.filter((v) => !v.sandboxDefined).length).toBeGreaterThan(5);
  });

  it('marks a mutation breaking a bound the contract chose, not one breaking a bound the spec states', () => {
    const batch = find('v1.3.0', 'SimaBatchRequest');
    const variants = invalidVariants(batch.doc, batch.schema, { seed: 1 });
    const marked = (path: string, kind: string) => variants.find((v) => v.path.join('.') === path && v.kind === kind)?.sandboxDefined;
    expect(marked('webhookSecret', 'too-long')).toBe(false); // spec 6, 8.8: up to 512 characters
    expect(marked('webhookUrl', 'too-long')).toBe(true); // 2,048: the sandbox's
    expect(marked('screeningAuthority', 'too-long')).toBe(true); // 16: the sandbox's
    expect(marked('screeningAuthority', 'pattern-mismatch')).toBe(false); // spec 4.2: must normalize to CA or US
  });

  it('leaves out a mutation the schema still accepts (another anyOf branch takes it)', () => {
    const doc = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: {} } } as unknown as OpenApiDocument;
    const schema = { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'integer', minimum: 0 }] } as Json;
    const variants = invalidVariants(doc, schema, { seed: 1, base: 'abc' });
    const validate = createContractSchemas(doc).validator(schema);
    // The string branch's "wrong type" (12345) is a valid integer, the integer branch's (a string) is a
    // valid short string only when short: both are dropped when accepted.
    expect(variants.every((v) => !validate(v.value))).toBe(true);
    expect(variants.map((v) => v.value)).not.toContain(12345);
    expect(variants.map((v) => v.kind)).toEqual(expect.arrayContaining(['too-long', 'below-minimum']));
  });

  it('is deterministic for a seed', () => {
    const entry = find('v1.3.0', 'SimaBatchRequest');
    expect(invalidVariants(entry.doc, entry.schema, { seed: 9 })).toEqual(invalidVariants(entry.doc, entry.schema, { seed: 9 }));
  });
});
