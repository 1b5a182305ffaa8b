import { describe, expect, it } from 'vitest';
import { loadContract, type JsonObject } from '../lib/bundle.js';
import { lintContract } from './ruleset.js';

// The real contract must lint clean (contracts.test.ts); here each house rule is shown to fire on a copy
// broken on purpose, so a rule that can never fail would be caught.
async function ruleCodes(mutate: (doc: ReturnType<typeof loadContract>) => void): Promise<string[]> {
  const doc = loadContract('v1.3.0');
  mutate(doc);
  return (await lintContract(doc)).map((result) => String(result.code));
}
const op = (doc: JsonObject, path: string, method: string) => ((doc.paths as JsonObject)[path] as JsonObject)[method] as JsonObject;
const responses = (doc: JsonObject, path: string, method: string) => op(doc, path, method).responses as JsonObject;

describe('the contract ruleset', () => {
  it('reports an operation without an operationId', async () => {
    expect(await ruleCodes((doc) => delete op(doc, '/api/jobs', 'get').operationId)).toContain('tfas-operation-id-present');
  });

  it('reports an operationId used twice', async () => {
    expect(await ruleCodes((doc) => (op(doc, '/api/jobs/{id}', 'get').operationId = 'listJobs'))).toContain('tfas-operation-id-unique');
  });

  it('reports an error response whose body is not the envelope', async () => {
    const codes = await ruleCodes((doc) => {
      responses(doc, '/api/jobs', 'get')['404'] = {
        description: 'bare',
        content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } } } } },
      };
    });
    expect(codes).toContain('tfas-error-responses-use-envelope');
  });

  it('reports an error code that section 7 does not define, or sends with another status', async () => {
    const narrowed = (code: string): JsonObject => ({
      description: 'x',
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' } as JsonObject, { type: 'object', properties: { code: { enum: [code] } } }] },
          example: { code, message: 'x' },
        },
      },
    });
    expect(await ruleCodes((doc) => (responses(doc, '/api/jobs', 'get')['400'] = narrowed('BAD_THING')))).toContain('tfas-error-codes-from-section-7');
    expect(await ruleCodes((doc) => (responses(doc, '/api/jobs', 'get')['400'] = narrowed('NOT_FOUND')))).toContain('tfas-error-codes-from-section-7');
  });

  it('reports a limit without bounds and an offset that may be negative', async () => {
    const codes = await ruleCodes((doc) => {
      op(doc, '/api/jobs', 'get').parameters = [
        { name: 'limit', in: 'query', schema: { type: 'integer', default: 50 } },
        { name: 'offset', in: 'query', schema: { type: 'integer' } },
      ];
    });
    expect(codes.filter((code) => code === 'tfas-pagination-bounds')).toHaveLength(2);
  });

  it('reports a paged list that takes no offset', async () => {
    const codes = await ruleCodes((doc) => {
      const list = op(doc, '/api/ship/claims/submissions', 'get');
      list.parameters = (list.parameters as JsonObject[]).filter((p) => p.name !== 'offset' && p.$ref !== '#/components/parameters/Offset');
    });
    expect(codes).toContain('tfas-lists-are-paginated');
  });
});

describe('the security rule', () => {
  it('reports a requirement naming an undeclared scheme', async () => {
    expect(await ruleCodes((doc) => (op(doc, '/api/jobs', 'get').security = [{ apiToken: [] }]))).toContain('tfas-security-schemes-defined');
  });
});
