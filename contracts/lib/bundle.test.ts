import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleContract, CONTRACTS_DIR, ContractBundleError, type Json } from './bundle.js';

// Bundles small in-memory fixtures laid out like contracts/.
const at = (...parts: string[]) => path.join(CONTRACTS_DIR, ...parts);
function bundleFixture(files: Record<string, Json>) {
  return bundleContract(at('vX', 'openapi.yaml'), (file) => {
    const key = path.relative(CONTRACTS_DIR, file);
    if (!(key in files)) throw new ContractBundleError(`no fixture ${key}`);
    return structuredClone(files[key]);
  });
}
const root = (paths: Json): Json => ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths });

describe('bundleContract', () => {
  it('names each component by its key and rewrites refs to the components section', () => {
    const doc = bundleFixture({
      'vX/openapi.yaml': root({ '/a': { $ref: '../components/paths/a.yaml#/a' } }),
      'components/paths/a.yaml': { a: { get: { responses: { '200': { $ref: '../responses/r.yaml#/Ok' } } } } },
      'components/responses/r.yaml': { Ok: { description: 'ok', content: { 'application/json': { schema: { $ref: '../schemas/s.yaml#/Thing' } } } } },
      'components/schemas/s.yaml': { Thing: { type: 'object', properties: { self: { $ref: '#/Thing' } } } },
    });
    expect(doc.paths['/a']).toEqual({ get: { responses: { '200': { $ref: '#/components/responses/Ok' } } } });
    expect(doc.components).toEqual({
      responses: { Ok: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
      schemas: { Thing: { type: 'object', properties: { self: { $ref: '#/components/schemas/Thing' } } } },
    });
  });

  it('refuses one component name defined in two files', () => {
    expect(() =>
      bundleFixture({
        'vX/openapi.yaml': root({ '/a': { get: { responses: { '200': { description: 'x', content: { 'application/json': { schema: { anyOf: [{ $ref: '../components/schemas/one.yaml#/Thing' }, { $ref: '../components/schemas/two.yaml#/Thing' }] } } } } } } } }),
        'components/schemas/one.yaml': { Thing: { type: 'string' } },
        'components/schemas/two.yaml': { Thing: { type: 'integer' } },
      }),
    ).toThrow(/defined twice/);
  });

  it('refuses a ref that does not resolve, or that points outside contracts/components', () => {
    expect(() => bundleFixture({ 'vX/openapi.yaml': root({ '/a': { $ref: '../components/paths/a.yaml#/missing' } }), 'components/paths/a.yaml': {} })).toThrow(/unresolved/);
    expect(() => bundleFixture({ 'vX/openapi.yaml': root({ '/a': { $ref: '../elsewhere/a.yaml#/a' } }) })).toThrow(/not under contracts\/components/);
  });
});
