import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS, loadContract } from '../../../contracts/lib/bundle.js';
import { listOperations } from '../../../contracts/lib/operations.js';
import { createContractSchemas } from '../../../contracts/lib/schemas.js';
import { ApiError } from '../errors.js';
import { compileRequestValidator } from './validate-request.js';
import { listed, MAX_LISTED, patternWordsOf } from './validation-words.js';

const doc = loadContract('v1.3.0');
const schemas = createContractSchemas(doc);
const operation = (id: string) => listOperations(doc).find((op) => op.operationId === id)!;

/** The message and field of the 400 a request gets from the contract's validator. */
function refusal(operationId: string, raw: { query?: Record<string, string>; body?: unknown; contentType?: string }) {
  const validate = compileRequestValidator(doc, operation(operationId), schemas);
  try {
    validate({ params: {}, query: raw.query ?? {}, headers: {}, body: raw.body, fileFields: {}, contentType: raw.contentType ?? 'application/json', hasBody: raw.body !== undefined });
  } catch (error) {
    if (error instanceof ApiError) return { message: error.message, field: error.details?.field };
    throw error;
  }
  throw new Error(`${operationId} accepted the request`);
}

describe('validation messages a person can act on (issue 29 item 8)', () => {
  it('gives every pattern of every served contract its words, so no message quotes a regular expression', () => {
    for (const version of CONTRACT_VERSIONS) {
      const patterns: string[] = [];
      JSON.stringify(loadContract(version), (key, value) => (key === 'pattern' && typeof value === 'string' && patterns.push(value), value));
      const words = patternWordsOf(loadContract(version));
      expect(patterns.filter((p) => !words.has(p)), version).toEqual([]);
    }
  });

  it('says what the screening authority must be in words, naming the field', () => {
    expect(refusal('enqueueSimaBatch', { body: { skus: ['A'], screeningAuthority: 'EU' } })).toEqual({
      message: 'screeningAuthority must be CA or US (any case, surrounding spaces allowed)',
      field: 'screeningAuthority',
    });
  });

  it('says a missing field is required, without the validator\'s phrasing', () => {
    const { message, field } = refusal('createClaimSubmission', { body: { findingIds: ['3f6b1c9e-8d2a-4a51-9a7e-2b4d8c1e5f60'] } });
    expect(message).toBe(`${field} is required`);
    expect(message).not.toMatch(/must have required property/);
  });

  it('says a bound in words', () => {
    expect(refusal('listJobs', { query: { limit: '0' } })).toEqual({ message: 'limit must be at least 1', field: 'limit' });
  });

  it('never lists more than ten values', () => {
    const many = Array.from({ length: 140 }, (_, i) => `id-${i}`);
    expect(listed(many)).toBe(`${many.slice(0, MAX_LISTED).join(', ')} (and 130 more)`);
    expect(listed(['A', 'B'])).toBe('A, B');
  });
});
