// The covering requests over every operation of every contract version: each is valid for the contract
// (ajv), together with the example they cover every enum value, bound edge, pattern, normalization rule and
// optional presence the coverage report counts (unless it is noted as not generated), and the invalid
// requests each break the value at exactly one place.
import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS } from '../../../contracts/lib/bundle.js';
import { loadTargetContract } from '../../harness/contract.js';
import { constraintsOf } from './coverage-constraints.js';
import { coveringRequests } from './covering-requests.js';
import { operationInputs } from './inputs.js';
import { negativeCases } from './negative-cases.js';
import { exampleRequest, prepare, readText } from './requests.js';

const SEED = 20261121;
const COMPOSITE = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'then', 'else', 'not']);
/** Keys of a required-only oneOf (applyClassification: classificationId or reviewId) are not varied. */
const ALTERNATIVE_KEYS = ['applyClassification body classificationId optional-absent', 'applyClassification body reviewId optional-present'];

const operations = CONTRACT_VERSIONS.flatMap((version) => {
  const contract = loadTargetContract(version);
  return contract.operations.map((op) => ({ version, contract, prepared: prepare(contract, operationInputs(contract.doc, op), SEED) }));
});

describe('coveringRequests', () => {
  it('sends only requests the contract accepts (every operation of v1.3.0, v1.2.0, v1.1.0)', () => {
    const refused: string[] = [];
    let count = 0;
    for (const { version, contract, prepared } of operations) {
      for (const spec of coveringRequests(contract, prepared, prepared.examplePath, SEED)) {
        count++;
        for (const param of prepared.inputs.params) {
          const text = param.in === 'query' ? spec.query[param.name] : param.in === 'header' ? spec.headers[param.name] : spec.path[param.name];
          if (text === undefined) continue;
          if (!contract.schemas.validator(param.schema)(readText(contract.doc, param.schema, text))) refused.push(`${version} ${spec.label}: ${param.name}=${text}`);
        }
        const body = prepared.inputs.body;
        if (body && !body.multipart && spec.json !== undefined && !contract.schemas.validator(body.schema)(spec.json)) refused.push(`${version} ${spec.label}: ${JSON.stringify(spec.json)}`);
        if (body?.multipart && spec.form && body.fileField && !spec.form.file) refused.push(`${version} ${spec.label}: the file part is missing`);
      }
    }
    expect(count).toBeGreaterThan(300);
    expect(refused).toEqual([]);
  });

  it('covers every constraint the coverage report counts, with the example request, unless noted as not generated', () => {
    const missed: string[] = [];
    for (const { version, contract, prepared } of operations) {
      const sent = [exampleRequest(prepared), ...coveringRequests(contract, prepared, prepared.examplePath, SEED)];
      for (const constraint of constraintsOf(contract, prepared)) {
        if (constraint.kind === 'invalid' || constraint.note) continue;
        const name = `${prepared.inputs.op.operationId} ${constraint.input} ${constraint.kind}`;
        if (!sent.some(constraint.hit) && !ALTERNATIVE_KEYS.includes(name)) missed.push(`${version} ${name} ${constraint.detail}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('sends every enum value of listJobs and the limit at both edges, deterministically', () => {
    const contract = loadTargetContract('v1.3.0');
    const prepared = prepare(contract, operationInputs(contract.doc, contract.operation('listJobs')!), 1);
    const specs = coveringRequests(contract, prepared, {}, 1);
    expect(new Set(specs.map((s) => s.query.type).filter(Boolean))).toEqual(new Set(['ship_upload', 'sima_validation', 'catalog_upload', 'order_upload', 'carrier_agreement_upload', 'notification_digest', 'notification_event']));
    expect(specs.map((s) => s.query.limit)).toEqual(expect.arrayContaining(['1', '100']));
    expect(specs.some((s) => !('limit' in s.query))).toBe(true);
    expect(coveringRequests(contract, prepared, {}, 1)).toEqual(specs);
  });

  it('draws screeningAuthority from its pattern and sends the normalization values (padded, lower-case, blank)', () => {
    const contract = loadTargetContract('v1.3.0');
    const prepared = prepare(contract, operationInputs(contract.doc, contract.operation('enqueueSimaBatch')!), 1);
    const sent = coveringRequests(contract, prepared, {}, 1).map((s) => (s.json as Record<string, unknown>).screeningAuthority);
    expect(sent).toEqual(expect.arrayContaining([' US ', 'us', '', '   ', undefined]));
    expect(sent.filter((v) => typeof v === 'string' && !['CA', 'US', ' US ', '\tCA', 'US  ', 'us', 'ca', 'Us', 'cA', '', '   '].includes(v)).length).toBeGreaterThan(0);
  });
});

describe('negativeCases', () => {
  it('breaks a JSON body at exactly one place per request (every operation of every version)', () => {
    const several: string[] = [];
    for (const { version, contract, prepared } of operations) {
      const body = prepared.inputs.body;
      if (!body || body.multipart) continue;
      const validate = contract.schemas.validator(body.schema);
      for (const item of negativeCases(contract, prepared, SEED)) {
        if (prepared.inputs.params.some((p) => p.name === item.target) || item.spec.json === undefined) continue;
        expect(validate(item.spec.json), `${version} ${item.spec.label}`).toBe(false);
        const errors = validate.errors ?? [];
        const own = errors.filter((e) => !COMPOSITE.has(e.keyword));
        const places = new Set((own.length ? own : errors).map((e) => e.instancePath));
        if (places.size !== 1) several.push(`${version} ${prepared.inputs.op.operationId} ${item.variant.name}: ${[...places].join(', ')}`);
      }
    }
    expect(several).toEqual([]);
  });
});
