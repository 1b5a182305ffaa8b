// Byte keys whose order is the order a query asks for: the on-disk store (lmdb-store.ts) keeps every
// declared index as keys sorted by bytes, so a page is a range walk, as in a database's B-tree.
//
// Each part is a type tag and a payload; a descending part has every byte inverted, so a walk in byte order
// meets it in reverse. Strings end with 0x00 0x00, and a 0x00 inside is written 0x00 0xFF: no string's
// bytes begin another's, so a string sorts before any longer string it begins and, inverted, after it.
// Nulls sort after every value ascending and before every value descending, as compareValues
// (collection.ts) and PostgreSQL order them.
import { createHash } from 'node:crypto';
import type { FieldValue } from './collection.js';

export interface KeyPart {
  value: FieldValue;
  desc?: boolean;
}

const FALSE = 0x02;
const TRUE = 0x03;
const NUMBER = 0x04;
const STRING = 0x05;
const NULL = 0x06;

/** LMDB refuses keys over 1,978 bytes: a longer string keeps its first bytes (its order, nearly) and a hash
 *  of the whole (its equality, exactly). */
const STRING_BYTES = 256;

/** A byte greater than every part's first byte: a prefix followed by it bounds the prefix's range. */
export const AFTER_EVERY_PART = 0xff;

/** Room for any key: parts are bounded (a string at most STRING_BYTES + a hash, escaped: twice that). */
let scratch = Buffer.allocUnsafe(4096);

/** Writes one part at `at` and answers where it ends. A key is built in one buffer (a write encodes about
 *  twenty keys: one allocation each, not one per part). */
function writePart(value: FieldValue, desc: boolean | undefined, at: number): number {
  if (scratch.length - at < 2 * (STRING_BYTES + 32) + 16) {
    const bigger = Buffer.allocUnsafe(scratch.length * 2);
    scratch.copy(bigger, 0, 0, at);
    scratch = bigger;
  }
  const start = at;
  if (value === null || value === undefined) scratch[at++] = NULL;
  else if (typeof value === 'boolean') scratch[at++] = value ? TRUE : FALSE;
  else if (typeof value === 'number') {
    scratch[at] = NUMBER;
    scratch.writeDoubleBE(value === 0 ? 0 : value, at + 1); // -0 and 0 are one value
    // IEEE 754 ordered as unsigned bytes: negatives inverted whole, positives with the sign bit set.
    if (scratch[at + 1]! & 0x80) for (let i = at + 1; i < at + 9; i++) scratch[i] = ~scratch[i]! & 0xff;
    else scratch[at + 1]! |= 0x80;
    at += 9;
  } else {
    scratch[at++] = STRING;
    let text: Buffer | string = value;
    if (value.length > STRING_BYTES / 3 && Buffer.byteLength(value, 'utf8') > STRING_BYTES) {
      const bytes = Buffer.from(value, 'utf8');
      text = Buffer.concat([bytes.subarray(0, STRING_BYTES), createHash('sha256').update(bytes).digest()]);
    }
    const from = at;
    at += typeof text === 'string' ? scratch.write(text, at, 'utf8') : text.copy(scratch, at);
    // A 0x00 inside is rare (ids and dates have none): escape only when there is one.
    if (scratch.subarray(from, at).includes(0x00)) {
      const raw = Buffer.from(scratch.subarray(from, at));
      at = from;
      for (const byte of raw) {
        scratch[at++] = byte;
        if (byte === 0x00) scratch[at++] = 0xff;
      }
    }
    scratch[at++] = 0x00;
    scratch[at++] = 0x00;
  }
  if (desc) for (let i = start; i < at; i++) scratch[i] = ~scratch[i]! & 0xff;
  return at;
}

/** The key of a tuple of parts: byte order is the tuple's order, part by part. */
export function encodeKey(parts: readonly KeyPart[]): Buffer {
  let at = 0;
  for (const { value, desc } of parts) at = writePart(value, desc, at);
  return Buffer.from(scratch.subarray(0, at));
}

/** The key of ascending parts. */
export function keyOf(...values: FieldValue[]): Buffer {
  let at = 0;
  for (const value of values) at = writePart(value, false, at);
  return Buffer.from(scratch.subarray(0, at));
}

/** The first key after every key that begins with `prefix`. */
export const afterPrefix = (prefix: Buffer): Buffer => Buffer.concat([prefix, Buffer.from([AFTER_EVERY_PART])]);
