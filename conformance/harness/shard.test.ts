// Sharding the selection: every check in exactly one shard, the suite's order kept, a check's shard set by
// its id alone, and K/N read strictly.
import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS } from '../../contracts/lib/bundle.js';
import { checksFor } from '../checks/index.js';
import { loadTargetContract } from './contract.js';
import { defineCheck } from './check.js';
import { selectChecks } from './runner.js';
import { checksOfShard, parseShard, shardOfId, suiteIdentity } from './shard.js';

const suites = CONTRACT_VERSIONS.map((version) => [version, checksFor(loadTargetContract(version))] as const);
const ids = (checks: ReadonlyArray<{ id: string }>) => checks.map((check) => check.id);

describe('sharding the selected checks', () => {
  it.each(suites)('puts every check of the %s suite in exactly one shard, in the suite order, for any number of shards', (_version, suite) => {
    for (const selection of [suite, selectChecks(suite, ['operations']), selectChecks(suite, ['auth', 'limits'])]) {
      for (const count of [1, 2, 3, 4, 7, 500]) {
        const shards = Array.from({ length: count }, (_, i) => ids(checksOfShard(selection, { index: i + 1, count })));
        const union = shards.flat();
        expect(new Set(union).size, `${count} shards`).toBe(union.length);
        expect(union.sort()).toEqual(ids(selection).sort());
        // Each shard is a subsequence of the selection: the suite's order (limits last) holds in every shard.
        for (const shard of shards) expect(shard).toEqual(ids(selection).filter((id) => shard.includes(id)));
      }
    }
  });

  it("gives a check the shard of its id alone: a narrower --only or another suite moves it nowhere", () => {
    const suite = suites[0]![1];
    const narrow = selectChecks(suite, ['auth', 'journeys']);
    for (let index = 1; index <= 4; index++) {
      const shard = { index, count: 4 };
      const narrowIds = new Set(ids(narrow));
      expect(ids(checksOfShard(narrow, shard))).toEqual(ids(checksOfShard(suite, shard)).filter((id) => narrowIds.has(id)));
      expect(ids(checksOfShard([...suite].reverse(), shard)).reverse()).toEqual(ids(checksOfShard(suite, shard)));
    }
  });

  it('keeps the assignment of earlier suite versions (a CI runner keeps its checks)', () => {
    // Pinned: a change of the hash would silently move every check to another runner.
    expect(shardOfId('auth.token-exchange', 4)).toBe(3);
    expect(shardOfId('journeys.a', 4)).toBe(4);
    expect(shardOfId('limits.rate-limit', 4)).toBe(2);
    expect(shardOfId('operations.listJobs.accepts-valid-input', 2)).toBe(1);
  });

  it.each(suites)('spreads the %s suite over 2 to 6 shards with none far from its share', (_version, suite) => {
    for (let count = 2; count <= 6; count++) {
      const share = suite.length / count;
      for (let index = 1; index <= count; index++) {
        const size = checksOfShard(suite, { index, count }).length;
        expect(size, `shard ${index}/${count}`).toBeGreaterThanOrEqual(Math.floor(share * 0.6));
        expect(size, `shard ${index}/${count}`).toBeLessThanOrEqual(Math.ceil(share * 1.4));
      }
    }
  });
});

describe('--shard K/N', () => {
  it.each([
    ['1/4', { index: 1, count: 4 }],
    ['4/4', { index: 4, count: 4 }],
    [' 2 / 3 ', { index: 2, count: 3 }],
    ['1/1', { index: 1, count: 1 }],
  ])('reads %j', (text, shard) => {
    expect(parseShard(text)).toEqual(shard);
  });

  it.each([
    ['0/4', /K counts the shards from 1 to N \(here 1 to 4\)/],
    ['5/4', /K counts the shards from 1 to N \(here 1 to 4\)/],
    ['1/0', /N, the number of shards, must be at least 1/],
    ['x', /--shard takes K\/N, this runner's shard K of N \(e\.g\. 1\/4\), got "x"/],
    ['-1/4', /--shard takes K\/N/],
    ['1.5/4', /--shard takes K\/N/],
    ['1/4/2', /--shard takes K\/N/],
    ['4', /--shard takes K\/N/],
  ])('refuses %j with a message that says why', (text, message) => {
    expect(() => parseShard(text)).toThrow(message);
  });
});

describe('the suite identity a merge compares', () => {
  const check = (id: string) => defineCheck({ id, title: id, area: 'demo', needs: [], run: async () => {} });

  it('changes with the check list and not with anything else', () => {
    const a = suiteIdentity([check('demo.a'), check('demo.b')]);
    expect(a).toEqual(suiteIdentity([check('demo.a'), check('demo.b')]));
    expect(a.checks).toBe(2);
    expect(a.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(suiteIdentity([check('demo.a'), check('demo.c')]).digest).not.toBe(a.digest);
    expect(suiteIdentity([check('demo.a'), check('demo.b'), check('demo.c')]).digest).not.toBe(a.digest);
  });
});
