import { describe, expect, it } from 'vitest';
import { internedRecords, internedValues } from './interned-values.js';

// JavaScript cannot tell two equal strings apart, so these tests check what is observable: every value
// comes back unchanged, a repeated value is remembered once, and the table never outgrows its limit.
const fresh = (text: string) => [...text].join(''); // a new string with the same value

describe('interned values', () => {
  it('answers every value unchanged and remembers a repeated value once', () => {
    const interned = internedValues();
    const answers = Array.from({ length: 1000 }, (_, i) => interned.of(fresh(i % 2 ? 'CN' : '9401.61.10.90')));
    expect(answers.filter((a) => a === 'CN')).toHaveLength(500);
    expect(answers.filter((a) => a === '9401.61.10.90')).toHaveLength(500);
    expect(interned.size()).toBe(2);
    expect(interned.of(null)).toBeNull();
  });

  it('stops remembering new values at its limit and still answers every value unchanged', () => {
    const interned = internedValues(2);
    expect(['A', 'B', 'C', 'D', 'A', 'C'].map(fresh).map((v) => interned.of(v))).toEqual(['A', 'B', 'C', 'D', 'A', 'C']);
    expect(interned.size()).toBe(2);
  });

  it('puts the remembered string in place of the named string fields of a record, leaving other values as they are', () => {
    const interned = internedValues();
    const rows = [0, 1].map(() => ({ country: fresh('CN'), hsCode: null as string | null, note: fresh('kept'), destination: undefined as string | undefined, quantity: 3 }));
    const answered = rows.map((row) => interned.fields(row, ['country', 'hsCode', 'destination', 'quantity']));
    expect(answered).toEqual([rows[0], rows[1]]);
    expect(answered[1]).toBe(rows[1]); // the record itself, changed in place
    expect(rows[1]).toEqual({ country: 'CN', hsCode: null, note: 'kept', destination: undefined, quantity: 3 });
    expect(Object.keys(rows[1])).toEqual(['country', 'hsCode', 'note', 'destination', 'quantity']);
    expect(interned.size()).toBe(1); // only CN: `note` was not named, null and undefined are no strings
  });

  it('answers one frozen object for equal records, a different one when a value or the key order differs', () => {
    const interned = internedRecords(3);
    const first = interned.of({ material: fresh('cotton') });
    expect(interned.of({ material: fresh('cotton') })).toBe(first);
    expect(first).toEqual({ material: 'cotton' });
    expect(Object.isFrozen(first)).toBe(true);
    expect(interned.of({ material: 'wool' })).not.toBe(first);
    const ab = interned.of({ a: '1', b: '2' });
    expect(interned.of({ b: '2', a: '1' })).not.toBe(ab);
    // At its limit, a new record is still answered (frozen and equal) but not shared.
    const beyond = interned.of({ material: 'linen' });
    expect(beyond).toEqual({ material: 'linen' });
    expect(interned.of({ material: 'linen' })).not.toBe(beyond);
    expect(interned.size()).toBe(3);
  });
});
