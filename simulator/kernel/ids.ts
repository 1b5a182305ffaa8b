// Identifiers. Random by default; seeded for tests and replays, so a failure can be reproduced from its seed.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

export interface IdGenerator {
  uuid(): string;
  /** A URL-safe random secret of `bytes` bytes. */
  secret(bytes?: number): string;
}

export const randomIds: IdGenerator = {
  uuid: () => randomUUID(),
  secret: (bytes = 24) => randomBytes(bytes).toString('base64url'),
};

/** mulberry32: a small seeded generator of numbers in [0, 1): same seed, same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deterministic ids from a seed (mulberry32): same seed, same sequence. */
export function seededIds(seed: number): IdGenerator {
  const next = seededRandom(seed);
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256)));
  return {
    uuid() {
      const b = bytes(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      const hex = b.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
    secret: (n = 24) => bytes(n).toString('base64url'),
  };
}

/**
 * A name-based UUID (RFC 9562 version 5, SHA-1): the same namespace and name always give the same id. For
 * records that must exist once per natural key (one webhook delivery per job and event), so a concurrent
 * second creation is refused by the store instead of making a duplicate.
 */
export function nameUuid(namespace: string, name: string): string {
  const hash = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
