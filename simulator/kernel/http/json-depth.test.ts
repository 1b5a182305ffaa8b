// The body nesting bound (README "Defaults the spec leaves open"), measured without recursion.
import { describe, expect, it } from 'vitest';
import { bodyShape, MAX_BODY_DEPTH, nestsDeeperThan } from './json-depth.js';

/** `levels` nested containers, alternating objects and arrays, around a scalar. */
const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = level % 2 ? [value] : { k: value };
  return value;
};

describe('nestsDeeperThan', () => {
  it('counts the body itself as level 1 and scalars as no level', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 2)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
  });

  it('accepts exactly the bound and refuses one level more', () => {
    expect(nestsDeeperThan(nested(MAX_BODY_DEPTH), MAX_BODY_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_BODY_DEPTH + 1), MAX_BODY_DEPTH)).toBe(true);
  });

  it('finds the deep branch among wide shallow ones', () => {
    const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, { v: i }]));
    expect(nestsDeeperThan({ ...wide, deep: nested(10) }, 10)).toBe(true);
    expect(nestsDeeperThan(wide, 10)).toBe(false);
  });

  it('measures a body nested 1,000,000 deep without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(1_000_000), MAX_BODY_DEPTH)).toBe(true);
  });
});

describe('bodyShape', () => {
  it('counts every value, containers included, and says whether the nesting passes the bound', () => {
    expect(bodyShape({ a: [1, 2, { b: null }] }, 3)).toEqual({ tooDeep: false, values: 6 });
    expect(bodyShape('x', 0)).toEqual({ tooDeep: false, values: 1 });
    expect(bodyShape(nested(MAX_BODY_DEPTH + 1), MAX_BODY_DEPTH).tooDeep).toBe(true);
  });

  it('counts a 1,000,000-item array without recursion', () => {
    expect(bodyShape(new Array(1_000_000).fill('x'), MAX_BODY_DEPTH)).toEqual({ tooDeep: false, values: 1_000_001 });
  });
});
