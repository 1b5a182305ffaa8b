// What a check records as sent is what the server receives (issue 26 item 4): every request the operation
// checks build (covering, generated and invalid ones, for several seeds) reads back from its wire form (the
// percent-encoded path and query, the header values, the multipart body as Node's fetch serializes it) as
// exactly the values the request records. A form field's lone line feed travels as CRLF (the WHATWG
// multipart/form-data encoding algorithm), so a generator that left one in would send a value other than the
// one it judged valid (seed 502948126: 15 characters generated, 21 received, over maxLength 16).
import { describe, expect, it } from 'vitest';
import { loadTargetContract } from '../../harness/contract.js';
import { coveringRequests } from './covering-requests.js';
import { generatedRequests } from './generated-requests.js';
import { operationInputs } from './inputs.js';
import { negativeCases } from './negative-cases.js';
import { buildForm, exampleRequest, prepare, propertySchema, readText, urlOf, type Prepared, type RequestSpec } from './requests.js';

const contract = loadTargetContract('v1.3.0');
const SEEDS = [502948126, 1, 20261121, 7, 99991];

async function readBack(prepared: Prepared, spec: RequestSpec) {
  const url = new URL(urlOf(prepared, spec), 'http://target.example');
  const template = prepared.inputs.op.path.split('/');
  const path: Record<string, string> = {};
  url.pathname.split('/').forEach((segment, index) => {
    const name = /^\{(.+)\}$/.exec(template[index] ?? '')?.[1];
    if (name) path[name] = decodeURIComponent(segment);
  });
  const query: Record<string, string> = Object.fromEntries(url.searchParams);
  const headers: Record<string, string> = {};
  const sent = new Headers(spec.headers);
  for (const name of Object.keys(spec.headers)) headers[name] = sent.get(name) ?? '';
  const form = buildForm(prepared, spec);
  let fields: Record<string, string | string[]> | undefined;
  if (form) {
    const response = new Response(form);
    const parsed = await new Response(await response.arrayBuffer(), { headers: { 'content-type': response.headers.get('content-type')! } }).formData();
    fields = {};
    for (const name of new Set([...parsed.keys()])) {
      if (name === prepared.inputs.body?.fileField) continue;
      const all = parsed.getAll(name).map(String);
      fields[name] = Array.isArray(spec.form!.fields[name]) ? all : all[all.length - 1];
    }
  }
  return { path, query, headers, fields };
}

describe('the wire form of the requests the operation checks build', () => {
  it.each(SEEDS)('reads back as the recorded values, for every operation (seed %i)', async (seed) => {
    const mismatches: string[] = [];
    for (const op of contract.operations) {
      const inputs = operationInputs(contract.doc, op);
      const prepared = prepare(contract, inputs, seed);
      const specs = [exampleRequest(prepared), ...coveringRequests(contract, prepared, prepared.examplePath, seed), ...generatedRequests(contract, prepared, prepared.examplePath, 4, seed), ...negativeCases(contract, prepared, seed).map((c) => c.spec)];
      for (const spec of specs) {
        const wire = await readBack(prepared, spec);
        const recorded = { path: spec.path, query: spec.query, headers: spec.headers, fields: spec.form?.fields };
        if (JSON.stringify(wire) !== JSON.stringify(recorded)) mismatches.push(`${op.operationId} ${spec.label}: recorded ${JSON.stringify(recorded)}, on the wire ${JSON.stringify(wire)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it.each(SEEDS)('of a valid multipart request is a body the contract accepts, as the server reads it (seed %i)', async (seed) => {
    const refused: string[] = [];
    for (const op of contract.operations) {
      const inputs = operationInputs(contract.doc, op);
      const body = inputs.body;
      if (!body?.multipart) continue;
      const validate = contract.schemas.validator(body.schema);
      const prepared = prepare(contract, inputs, seed);
      for (const spec of [...coveringRequests(contract, prepared, prepared.examplePath, seed), ...generatedRequests(contract, prepared, prepared.examplePath, 4, seed)]) {
        const { fields } = await readBack(prepared, spec);
        const read: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(fields ?? {})) read[name] = readText(contract.doc, propertySchema(contract.doc, body.schema, name), value);
        if (spec.form?.file && body.fileField) read[body.fileField] = prepared.file!.name;
        if (!validate(read)) refused.push(`${op.operationId} ${spec.label}: ${JSON.stringify(read)}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
