import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS, CONTROL_CONTRACT, DASHBOARD_CONTRACT, isObject, loadContract, type Json, type OpenApiDocument } from './bundle.js';
import { hasSandboxShape, isSandboxDefined, markerProblems, sandboxBounds, specDefault, specView } from './sandbox-defined.js';
import { createContractSchemas } from './schemas.js';

const schemaOf = (doc: OpenApiDocument, name: string) => (doc.components.schemas as Record<string, Json>)[name];
const parameterOf = (doc: OpenApiDocument, name: string) => (doc.components.parameters as Record<string, Json>)[name];
const prop = (node: Json, ...path: string[]): Json => {
  let at: Json = node;
  for (const key of path) {
    if (!isObject(at)) return null;
    // Through allOf branches to the one that declares the property.
    const own = isObject(at.properties) ? at.properties[key] : undefined;
    const viaAllOf = Array.isArray(at.allOf) ? at.allOf.map((b) => (isObject(b) && isObject(b.properties) ? b.properties[key] : undefined)).find((v) => v !== undefined) : undefined;
    at = (own ?? viaAllOf ?? null) as Json;
  }
  return at;
};

describe('the sandbox-defined vocabulary', () => {
  it("tells the spec's defaults from the sandbox's: the catalog upload's sourceAdapter is the spec's, the order upload's ingestMode ours", () => {
    const doc = loadContract('v1.3.0');
    expect(specDefault(prop(schemaOf(doc, 'CatalogUploadForm'), 'sourceAdapter'))).toBe('catalog-excel');
    expect(prop(schemaOf(doc, 'OrderUploadForm'), 'ingestMode')).toMatchObject({ default: 'PATCH' });
    expect(specDefault(prop(schemaOf(doc, 'OrderUploadForm'), 'ingestMode'))).toBeUndefined();
    expect(markerProblems({ type: 'string', 'x-sandbox-defined-default': true })).toEqual(['#/x-sandbox-defined-default: must be true, beside a default']);
  });

  it.each([...CONTRACT_VERSIONS, CONTROL_CONTRACT, DASHBOARD_CONTRACT])('is used only with its known keys and values in %s', (version) => {
    expect(markerProblems(loadContract(version))).toEqual([]);
  });

  it('refuses an unknown marker key, a wrong value, a bound the schema lacks and an enum value it lacks', () => {
    expect(markerProblems({ type: 'string', 'x-sandbox-choice': true })).toEqual(['#/x-sandbox-choice: unknown marker x-sandbox-choice']);
    expect(markerProblems({ type: 'string', 'x-sandbox-defined': 'yes' })).toEqual(['#/x-sandbox-defined: "yes" is not one of true, "contents"']);
    expect(markerProblems({ type: 'string', 'x-sandbox-defined': false })).toHaveLength(1);
    expect(markerProblems({ type: 'string', maxLength: 5, 'x-sandbox-defined-bounds': ['maxItems'] })).toEqual(['#/x-sandbox-defined-bounds: lists maxItems, which the schema does not carry']);
    expect(markerProblems({ type: 'string', maxLength: 5, 'x-sandbox-defined-bounds': ['format'] })).toEqual(['#/x-sandbox-defined-bounds: "format" is not a bound keyword']);
    expect(markerProblems({ type: 'string', enum: ['a'], 'x-sandbox-defined-values': ['b'] })).toEqual(['#/x-sandbox-defined-values: "b" is not a value of the enum']);
    expect(markerProblems({ properties: { a: { type: 'string', 'x-sandbox-defined': 'contents' } } })).toEqual([]);
  });
});

describe('the spec view of a schema', () => {
  it('accepts anything where the shape is ours, and no longer requires a property whose name is ours', () => {
    const schema = { type: 'object', required: ['a', 'b', 'c'], properties: { a: { type: 'string' }, b: { type: 'object', 'x-sandbox-defined': true }, c: { type: 'object', 'x-sandbox-defined': 'contents', required: ['x'] } } };
    expect(specView(schema)).toEqual({ type: 'object', required: ['a', 'c'], properties: { a: { type: 'string' }, b: {}, c: {} } });
  });

  it('drops the bounds and enums that are ours, keeps the spec\'s, and lets objects carry fields they do not declare', () => {
    expect(specView({ type: 'string', minLength: 1, maxLength: 64, 'x-sandbox-defined-bounds': ['maxLength'] })).toEqual({ type: 'string', minLength: 1, 'x-sandbox-defined-bounds': ['maxLength'] });
    expect(specView({ type: 'string', enum: ['ELIGIBLE', 'INELIGIBLE'], 'x-sandbox-defined-values': ['INELIGIBLE'] })).toEqual({ type: 'string', 'x-sandbox-defined-values': ['INELIGIBLE'] });
    expect(specView({ type: 'object', additionalProperties: false, properties: {} })).toEqual({ type: 'object', properties: {} });
  });

  it('turns oneOf into anyOf, so that null still matches a nullable value whose other branch is ours', () => {
    expect(specView({ oneOf: [{ type: 'object', 'x-sandbox-defined': true }, { type: 'null' }] })).toEqual({ anyOf: [{}, { type: 'null' }] });
  });

  it('compiles for every contract, and the contract examples pass it', () => {
    for (const version of CONTRACT_VERSIONS) {
      const doc = loadContract(version);
      const viewed = createContractSchemas(specView(doc) as OpenApiDocument, { checkComponents: false });
      const refused = Object.entries(doc.components.schemas as Record<string, Json>)
        .filter(([, schema]) => isObject(schema) && 'example' in schema)
        .filter(([name, schema]) => !viewed.component(name)((schema as Record<string, Json>).example))
        .map(([name]) => `${version} ${name}`);
      expect(refused).toEqual([]);
    }
    const v13 = createContractSchemas(specView(loadContract('v1.3.0')) as OpenApiDocument, { checkComponents: false });
    expect(v13.component('FindingList')({ items: [], counts: [{ status: 'OPEN', n: 1 }] })).toBe(true);
  });
});

// Each marker checked against the sentence of the spec that makes the part ours (or the spec's).
describe('the markers say what the spec fixes (spec v1.3.0)', () => {
  const doc = loadContract('v1.3.0');

  it('marks the envelopes the spec leaves without fields: SKU page, issue page, finding page (4.4, 4.5)', () => {
    for (const name of ['FeedSkuPage', 'FeedIssuePage', 'FindingList']) expect(isSandboxDefined(schemaOf(doc, name)), name).toBe(true);
  });

  it('leaves the envelopes the spec spells out unmarked: jobs, SIMA results with its cursor, submissions (2.2, 2.4, 2.7)', () => {
    for (const name of ['JobList', 'SimaResultList', 'ClaimSubmissionList', 'SubmissionEnvelope', 'PageMeta', 'Job', 'SimaResult', 'ClaimSubmission', 'TokenResponse', 'BillingSetupResponse', 'RateLimitDetails', 'ErrorEnvelope']) {
      expect(hasSandboxShape(schemaOf(doc, name)), name).toBe(false);
    }
    expect(hasSandboxShape(prop(schemaOf(doc, 'SimaResultList'), 'cursor'))).toBe(false);
    expect(hasSandboxShape(prop(schemaOf(doc, 'ClaimSubmissionList'), 'submissions'))).toBe(false);
  });

  it('marks the breakdown as named with contents not shown, and the deMinimis and trust structures (4.6 rules 5, 8)', () => {
    const response = schemaOf(doc, 'LandedCostResponse');
    expect(isObject(prop(response, 'breakdown')) && (prop(response, 'breakdown') as Record<string, Json>)['x-sandbox-defined']).toBe('contents');
    expect(isSandboxDefined(schemaOf(doc, 'LandedCostBreakdown'))).toBe(true);
    for (const name of ['LandedCostDeMinimis', 'LandedCostTrust']) expect(hasSandboxShape(schemaOf(doc, name)), name).toBe(true);
    for (const name of ['status', 'reason', 'metadata', 'providerSkipReason']) expect(hasSandboxShape(prop(response, name)), name).toBe(false);
  });

  it('marks the finding record beyond its five named fields, and the status counts (2.6, 4.5)', () => {
    const finding = schemaOf(doc, 'Finding');
    for (const name of ['workflowStatus', 'claimEligibility', 'claimBlockerReason', 'actionability', 'headline']) expect(isSandboxDefined(prop(finding, name)), name).toBe(false);
    for (const name of ['id', 'carrier', 'createdAt', 'updatedAt', 'credit']) expect(isSandboxDefined(prop(finding, name)), name).toBe(true);
    expect(sandboxBounds(schemaOf(doc, 'ClaimEligibility')).size).toBe(0);
    expect((schemaOf(doc, 'ClaimEligibility') as Record<string, Json>)['x-sandbox-defined-values']).toEqual(['INELIGIBLE', 'CARRIER_BLOCKED', 'OUTSIDE_DISPUTE_WINDOW']);
    expect(isSandboxDefined(schemaOf(doc, 'FindingStatusCounts'))).toBe(true);
  });

  it('marks every advanced-trade record but the compliance check\'s quoteReadiness (2.10, 4.6)', () => {
    for (const name of ['Classification', 'ClassificationCandidate', 'ClassificationRequest', 'ClassificationBatchRequest', 'ClassificationApplyRequest', 'ClassificationApplyResult', 'ClassificationReview', 'ClassificationReviewPage', 'ClassificationReviewDecisionRequest', 'ComplianceCheckRequest']) {
      expect(isSandboxDefined(schemaOf(doc, name)), name).toBe(true);
    }
    expect(hasSandboxShape(prop(schemaOf(doc, 'ComplianceCheckResult'), 'quoteReadiness'))).toBe(false);
  });

  it('keeps the bounds the spec states: Idempotency-Key 1..200 (8.5), webhook secret 512 (6, 8.8), page limits (8.6)', () => {
    expect(sandboxBounds((parameterOf(doc, 'IdempotencyKey') as Record<string, Json>).schema).size).toBe(0);
    expect(sandboxBounds(prop(schemaOf(doc, 'WebhookConfig'), 'webhookSecret')).size).toBe(0);
    for (const name of ['JobsLimit', 'SimaResultsLimit', 'FeedPageLimit', 'FindingsLimit', 'SubmissionsLimit']) {
      expect(sandboxBounds((parameterOf(doc, name) as Record<string, Json>).schema).size, name).toBe(0);
    }
  });

  it('marks every maxLength, maxItems and maxProperties of a request the spec does not state', () => {
    // Bounds the spec states, by where they are (component/property path).
    const SPEC_BOUNDS = new Set([
      'parameters/IdempotencyKey/schema maxLength', // 8.5: 1 to 200 characters
      'schemas/WebhookConfig/properties/webhookSecret maxLength', // 6, 8.8: secret up to 512 characters
      'schemas/WebhookSettings/properties/secret maxLength',
      'schemas/SignupLegalAcceptance/properties/ip maxLength', // the longest IPv6 text form (RFC 4291): the format's, not ours
    ]);
    const unmarked: string[] = [];
    const walk = (node: Json, where: string, ours: boolean) => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}/${i}`, ours));
      if (!isObject(node)) return;
      const inside = ours || hasSandboxShape(node);
      const bounds = sandboxBounds(node);
      for (const keyword of ['maxLength', 'maxItems', 'maxProperties']) {
        if (typeof node[keyword] !== 'number' || inside || bounds.has(keyword) || SPEC_BOUNDS.has(`${where} ${keyword}`)) continue;
        unmarked.push(`${where} ${keyword}`);
      }
      for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') walk(value, `${where}/${key}`, inside);
    };
    for (const version of CONTRACT_VERSIONS) {
      const d = loadContract(version);
      walk(d.components.schemas as Json, 'schemas', false);
      walk(d.components.parameters as Json, 'parameters', false);
    }
    expect([...new Set(unmarked)]).toEqual([]);
  });
});
