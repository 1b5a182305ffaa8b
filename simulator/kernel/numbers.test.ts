import { describe, expect, it } from 'vitest';
import { cents, round2, sum2 } from './numbers.js';

// Math.round(n * 100) / 100, the rounding this replaced, for the cases where it is wrong.
const binaryRound2 = (n: number) => Math.round(n * 100) / 100;

describe('rounding to the cent', () => {
  it('rounds a written half cent up, where rounding the binary product rounds it down', () => {
    expect([1.005, 1.015, 0.35 * 0.1, 1.45 * 0.1].map(round2)).toEqual([1.01, 1.02, 0.04, 0.15]);
    expect([1.005, 1.015, 0.35 * 0.1, 1.45 * 0.1].map(binaryRound2)).toEqual([1, 1.01, 0.03, 0.14]);
  });

  it('rounds a negative half cent away from zero, as its positive amount rounds up', () => {
    expect([-1.005, -2.675, -0.125].map(round2)).toEqual([-1.01, -2.68, -0.13]);
    expect([2.675, 0.125].map(round2)).toEqual([2.68, 0.13]);
  });

  it('keeps amounts already in cents and rounds the rest to the nearest cent', () => {
    expect([0, 19.99, -19.99, 1560, 44.422, 44.428, 1234567.894].map(round2)).toEqual([0, 19.99, -19.99, 1560, 44.42, 44.43, 1234567.89]);
  });

  it('answers 0, not -0, for a negative amount under half a cent', () => {
    expect(Object.is(round2(-0.004), 0)).toBe(true);
    expect(Object.is(cents(-0.001), 0)).toBe(true);
  });

  it('adds amounts in whole cents, so rounded parts add up to their rounded total with no float drift', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sum2([0.1, 0.2])).toBe(0.3);
    expect(sum2([1.005, 2.675, -1.005])).toBe(2.68);
    expect(cents(sum2([19.99, 0.01, 5.555]))).toBe(cents(19.99) + cents(0.01) + cents(5.555));
  });
});
