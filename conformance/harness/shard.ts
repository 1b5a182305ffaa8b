// Sharded runs (issue 17 item 5): `--shard K/N` runs the checks of the selection that fall in shard K of N, so
// CI can spread a certification over N runners and merge their reports (reporters/merge.ts).
//
// A check's shard is a hash of its id (the first 32 bits of its SHA-256, modulo N), not its place in a
// round-robin over the sorted ids. So a check's shard depends on its id and N alone: adding or removing checks
// in a later suite moves no other check (a runner's timing history and a failure's shard stay meaningful), and
// `--only X --shard K/N` runs exactly the checks of X that the full run's shard K holds. The price is uneven
// counts (the 178 checks of v1.3.0 split 38/46/44/50 over 4 shards, round-robin would give 44-45), small next
// to how much checks differ in duration (a journey or a state machine takes seconds, most checks far less).
//
// The unit is the check: no check depends on another having run in the same process. Each sets up what it
// uses (its own tenants, uploads and jobs; a journey's steps are one check), and the runner provides a
// check's needs (second tenant, receiver) in whichever process it runs. The one rule across checks is their
// order (limits last: they fill buckets), and a shard keeps the suite's order.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Check } from './check.js';

export interface Shard {
  /** 1-based: shard `index` of `count`. */
  index: number;
  count: number;
}

/** `K/N` as given to --shard; throws with the message the CLI shows. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new Error(`--shard takes K/N, this runner's shard K of N (e.g. 1/4), got "${text}"`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (!Number.isSafeInteger(count) || count < 1) throw new Error(`--shard ${text}: N, the number of shards, must be at least 1`);
  if (!Number.isSafeInteger(index) || index < 1 || index > count) throw new Error(`--shard ${text}: K counts the shards from 1 to N (here 1 to ${count})`);
  return { index, count };
}

export const shardLabel = (shard: Shard) => `${shard.index}/${shard.count}`;

/** The shard (1-based) of the check with this id, among `count`. */
export function shardOfId(id: string, count: number): number {
  return (createHash('sha256').update(id).digest().readUInt32BE(0) % count) + 1;
}

/** The checks of `selection` in this shard, in the selection's order. */
export function checksOfShard<T extends { id: string }>(selection: readonly T[], shard: Shard): T[] {
  return selection.filter((check) => shardOfId(check.id, shard.count) === shard.index);
}

/** What a merge compares to know the shards ran the same suite: the package version and the suite's checks. */
export interface SuiteIdentity {
  version: string;
  /** Checks in the suite for the contract (before --only). */
  checks: number;
  /** SHA-256 (hex, first 16 characters) of the suite's check ids in order: a changed check list changes it. */
  digest: string;
}

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function suiteIdentity(suite: readonly Check[]): SuiteIdentity {
  const digest = createHash('sha256')
    .update(suite.map((check) => check.id).join('\n'))
    .digest('hex')
    .slice(0, 16);
  return { version: PACKAGE_VERSION, checks: suite.length, digest };
}
