import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareValues, type FieldValue } from './collection.js';
import { afterPrefix, encodeKey, keyOf } from './ordered-key.js';

/** A value of one kind per position, or null: a field holds one kind (mixed kinds are not ordered alike). */
const valueOf = (kind: 'string' | 'number' | 'boolean'): fc.Arbitrary<FieldValue> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: kind === 'string' ? fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'b', '\u0000', '\u00ff', 'é', 'z') }) : kind === 'number' ? fc.double({ noNaN: true }) : fc.boolean() },
  );
const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe('ordered keys', () => {
  it('sort by bytes as the tuples sort part by part, a descending part reversed, nulls last ascending', () => {
    const shape = fc.array(fc.record({ kind: fc.constantFrom('string' as const, 'number' as const, 'boolean' as const), desc: fc.boolean() }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        shape.chain((parts) => fc.tuple(fc.constant(parts), fc.tuple(...parts.map((p) => valueOf(p.kind))), fc.tuple(...parts.map((p) => valueOf(p.kind))))),
        ([parts, a, b]) => {
          const expected = parts.reduce((found, { desc }, i) => found || (desc ? -1 : 1) * sign(compareValues(a[i], b[i])) + 0, 0);
          const key = (values: FieldValue[]) => encodeKey(values.map((value, i) => ({ value, desc: parts[i].desc })));
          expect(sign(Buffer.compare(key(a), key(b)))).toBe(expected);
        },
      ),
      { seed: 20261128, numRuns: 2000 },
    );
  });

  it('keeps every key beginning with a prefix before afterPrefix(prefix), and others out', () => {
    const prefix = keyOf('jobs', 'byTenant', 't1');
    for (const inside of [keyOf('jobs', 'byTenant', 't1', null, 'x'), encodeKey([{ value: 'jobs' }, { value: 'byTenant' }, { value: 't1' }, { value: 'z', desc: true }])]) {
      expect(Buffer.compare(prefix, inside)).toBeLessThan(0);
      expect(Buffer.compare(inside, afterPrefix(prefix))).toBeLessThan(0);
    }
    expect(Buffer.compare(keyOf('jobs', 'byTenant', 't10'), afterPrefix(prefix))).toBeGreaterThan(0);
  });

  it('tells apart long strings that share their first bytes, and keeps a key under LMDB limit', () => {
    const long = 'x'.repeat(5000);
    expect(keyOf(`${long}a`).equals(keyOf(`${long}b`))).toBe(false);
    expect(keyOf(`${long}a`).equals(keyOf(`${long}a`))).toBe(true);
    expect(keyOf(`${long}a`).length).toBeLessThan(400);
  });
});
