// The generated contract types: current with the contracts, and complete by operationId. The expectTypeOf
// checks below do nothing at run time; `npm run typecheck` (tsc over this file) is what fails when they break.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { generatedTypesFile, renderContractTypes, TYPED_CONTRACTS } from '../../scripts/generate-contract-types.js';
import { CONTRACT_VERSIONS, loadContract } from '../lib/bundle.js';
import { listOperations } from '../lib/operations.js';
import type { Control, ControlOperationId, NoParams, OperationId, OperationOf, ParamsOf, QueryOf, RequestBody, V1_1_0, V1_2_0, V1_3_0 } from './index.js';

/** The line where two texts part, for a short failure message instead of a 6,000-line diff. */
function firstDifference(committed: string, fresh: string): string {
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '<end of file>')}, generated ${JSON.stringify(b[at] ?? '<end of file>')}`;
}

/** Keys of the `operations` interface openapi-typescript wrote (one per operationId). */
function operationKeys(text: string): string[] {
  const block = /^export interface operations \{\n([\s\S]*?)^\}$/m.exec(text);
  if (!block) throw new Error('no `export interface operations` in the generated text');
  return [...block[1].matchAll(/^ {4}(?:"([^"]+)"|([A-Za-z_$][\w$]*)): \{$/gm)].map((m) => m[1] ?? m[2]);
}

/** Members of a string-literal union type alias the generator appends. */
function unionMembers(text: string, name: string): string[] {
  const alias = new RegExp(`^export type ${name} =([^;]*);$`, 'm').exec(text);
  if (!alias) throw new Error(`no \`export type ${name}\` in the generated text`);
  return alias[1].trim() === 'never' ? [] : [...alias[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

describe.each(TYPED_CONTRACTS)('contracts/generated/%s.ts', (contract) => {
  it('is current (regenerate with npm run contracts:types)', async () => {
    const file = generatedTypesFile(contract);
    const fresh = await renderContractTypes(contract);
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : '';
    expect(committed === fresh, `contracts/generated/${contract}.ts is stale, run npm run contracts:types (${firstDifference(committed, fresh)})`).toBe(true);
  });

  it('types every operation of the contract by its operationId', () => {
    const text = readFileSync(generatedTypesFile(contract), 'utf8');
    const doc = loadContract(contract);
    const requests = listOperations(doc, ['paths']).map((op) => op.operationId);
    const webhooks = listOperations(doc, ['webhooks']).map((op) => op.operationId);
    expect(unionMembers(text, 'PathOperationId')).toEqual(requests);
    expect(unionMembers(text, 'WebhookOperationId')).toEqual(webhooks);
    expect(operationKeys(text).sort()).toEqual([...requests, ...webhooks].sort());
  });
});

describe('OperationId', () => {
  it('is the union of the request operationIds of the three public versions, removed ones included', () => {
    const fromContracts = new Set(CONTRACT_VERSIONS.flatMap((v) => listOperations(loadContract(v)).map((op) => op.operationId)));
    const fromGenerated = new Set(CONTRACT_VERSIONS.flatMap((v) => unionMembers(readFileSync(generatedTypesFile(v), 'utf8'), 'PathOperationId')));
    expect([...fromGenerated].sort()).toEqual([...fromContracts].sort());
    expect(fromContracts).toContain('createSignupSession'); // v1.2.0 and v1.1.0 only
    expect(fromContracts).toContain('listShipmentAudits'); // v1.2.0 only

    // Type level: OperationId is exactly those unions, and each generated `operations` interface holds just
    // the request and webhook operations the generator listed.
    expectTypeOf<OperationId>().toEqualTypeOf<V1_3_0.PathOperationId | V1_2_0.PathOperationId | V1_1_0.PathOperationId>();
    expectTypeOf<keyof V1_3_0.operations>().toEqualTypeOf<V1_3_0.PathOperationId | V1_3_0.WebhookOperationId>();
    expectTypeOf<keyof V1_2_0.operations>().toEqualTypeOf<V1_2_0.PathOperationId | V1_2_0.WebhookOperationId>();
    expectTypeOf<keyof V1_1_0.operations>().toEqualTypeOf<V1_1_0.PathOperationId | V1_1_0.WebhookOperationId>();
    expectTypeOf<keyof Control.operations>().toEqualTypeOf<ControlOperationId>();
    // Webhook deliveries are not requests; the control API shares no operationId with the public one.
    expectTypeOf<Extract<OperationId, V1_3_0.WebhookOperationId | V1_2_0.WebhookOperationId | V1_1_0.WebhookOperationId>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<OperationId, ControlOperationId>>().toEqualTypeOf<never>();
    const onlyInOlderVersions = ['createSignupSession', 'verifySignupMagicLink', 'listShipmentAudits', 'getShipment'] as const satisfies readonly OperationId[];
    expect(onlyInOlderVersions.every((id) => fromContracts.has(id))).toBe(true);
  });
});

describe('RequestBody, QueryOf, ParamsOf', () => {
  type Schemas13 = V1_3_0.components['schemas'];
  type Schemas12 = V1_2_0.components['schemas'];

  it('take an operation from the newest version that has it', () => {
    expectTypeOf<OperationOf<'enqueueSimaBatch'>>().toEqualTypeOf<V1_3_0.operations['enqueueSimaBatch']>();
    expectTypeOf<OperationOf<'listShipmentAudits'>>().toEqualTypeOf<V1_2_0.operations['listShipmentAudits']>();
    expectTypeOf<OperationOf<'provisionSignupSession'>>().toEqualTypeOf<V1_2_0.operations['provisionSignupSession']>();
    expectTypeOf<OperationOf<'advanceSandboxClock'>>().toEqualTypeOf<Control.operations['advanceSandboxClock']>();
  });

  it('give the JSON or multipart body, | undefined when optional, undefined when there is none', () => {
    expectTypeOf<RequestBody<'enqueueSimaBatch'>>().toEqualTypeOf<Schemas13['SimaBatchRequest']>();
    expectTypeOf<RequestBody<'enqueueSimaBatch'>['skus']>().toEqualTypeOf<string[] | null | undefined>();
    expectTypeOf<RequestBody<'uploadSimaScreeningFile'>>().toEqualTypeOf<Schemas13['SimaUploadForm']>();
    expectTypeOf<RequestBody<'createBillingSetupSession'>>().toEqualTypeOf<Schemas13['BillingSetupRequest'] | undefined>();
    expectTypeOf<RequestBody<'getJob'>>().toEqualTypeOf<undefined>();
    expectTypeOf<RequestBody<'disputeFinding'>>().toEqualTypeOf<undefined>();
    expectTypeOf<RequestBody<'createSignupSession'>>().toEqualTypeOf<Schemas12['CreateSignupSessionRequest']>();
    expectTypeOf<RequestBody<'advanceSandboxClock'>>().toEqualTypeOf<Control.operations['advanceSandboxClock']['requestBody']['content']['application/json']>();
    // `default` does not make a property required: the validator fills in no defaults.
    expectTypeOf<RequestBody<'calculateLandedCost'>['shippingCost']>().toEqualTypeOf<number | undefined>();
  });

  it('give the query and path parameters, NoParams when there are none', () => {
    expectTypeOf<ParamsOf<'getJob'>>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<QueryOf<'getJob'>>().toEqualTypeOf<NoParams>();
    expectTypeOf<ParamsOf<'listJobs'>>().toEqualTypeOf<NoParams>();
    expectTypeOf<QueryOf<'listJobs'>>().toEqualTypeOf<NonNullable<V1_3_0.operations['listJobs']['parameters']['query']>>();
    expectTypeOf<QueryOf<'listShipmentAudits'>['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ParamsOf<'getShipment'>>().toEqualTypeOf<{ shipmentId: string }>();
    expectTypeOf<ParamsOf<'getSandboxTenantSettings'>>().toEqualTypeOf<{ tenantId: string }>();
  });
});
