// The fail-fast validators agree with the contract's validators on what is valid (only the error list
// differs), and refuse a body of many invalid items in linear time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isObject, loadContract, type Json } from '../../../contracts/lib/bundle.js';
import { mediaExample } from '../../../contracts/lib/example-request.js';
import { deref, listOperations } from '../../../contracts/lib/operations.js';
import { createContractSchemas } from '../../../contracts/lib/schemas.js';
import { createFailFastSchemas } from './fail-fast-schemas.js';

const SEED = Number(process.env.FAIL_FAST_SEED ?? 4_242);
const doc = loadContract('v1.3.0');
const contractSchemas = createContractSchemas(doc);
const failFast = createFailFastSchemas(doc);

/** Every JSON request body schema of v1.3.0 with its example. */
const jsonBodies = listOperations(doc).flatMap((op) => {
  const body = deref(doc, op.operation.requestBody ?? null);
  const media = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
  if (!isObject(media)) return [];
  return [{ operationId: op.operationId, schema: media.schema as Json, example: mediaExample(doc, media) }];
});

describe('createFailFastSchemas', () => {
  it('has a JSON body schema to compare for most operations', () => {
    expect(jsonBodies.length).toBeGreaterThan(15);
  });

  it('accepts and refuses exactly what the contract validator does (examples bent at one member)', () => {
    const bent = fc.tuple(fc.constantFrom(...jsonBodies), fc.jsonValue({ maxDepth: 2 }), fc.nat(), fc.boolean()).map(([body, value, pick, keep]) => {
      if (keep || !isObject(body.example)) return { body, value: keep ? body.example : value };
      const keys = Object.keys(body.example);
      return { body, value: keys.length ? { ...body.example, [keys[pick % keys.length]]: value } : value };
    });
    fc.assert(
      fc.property(bent, ({ body, value }) => {
        expect(failFast.validator(body.schema)(value), body.operationId).toBe(contractSchemas.validator(body.schema)(value));
      }),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  it('refuses 500,000 invalid items at the first error, in well under a second', () => {
    const batch = jsonBodies.find((b) => b.operationId === 'classifyProductBatch')!;
    const validate = failFast.validator(batch.schema);
    const started = performance.now();
    expect(validate({ items: Array.from({ length: 500_000 }, (_, i) => `SKU-${i}`) })).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(validate.errors).toHaveLength(1);
  });
});
