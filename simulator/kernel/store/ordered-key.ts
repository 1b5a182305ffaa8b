// Byte keys whose order is the order a query asks for: the on-disk store (lmdb-store.ts) keeps every
// declared index as keys sorted by bytes, so a page is a range walk, as in a database's B-tree.
//
// Each part is a type tag and a payload; a descending part has every byte inverted, so a walk in byte order
// meets it in reverse. Strings end with 0x00 0x00, and a 0x00 inside is written 0x00 0xFF: no string's
// bytes begin another's, so a string sorts before any longer string it begins and, inverted, after it. Nulls sort after every value ascending and
// before every value descending, as compareValues (collection.ts) and PostgreSQL order them.
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

function encodePart({ value, desc }: KeyPart): Buffer {
  let bytes: Buffer;
  if (value === null || value === undefined) bytes = Buffer.from([NULL]);
  else if (typeof value === 'boolean') bytes = Buffer.from([value ? TRUE : FALSE]);
  else if (typeof value === 'number') {
    bytes = Buffer.alloc(9);
    bytes[0] = NUMBER;
    bytes.writeDoubleBE(value === 0 ? 0 : value, 1); // -0 and 0 are one value
    // IEEE 754 ordered as unsigned bytes: negatives inverted whole, positives with the sign bit set.
    if (bytes[1] & 0x80) for (let i = 1; i < 9; i++) bytes[i] = ~bytes[i] & 0xff;
    else bytes[1] |= 0x80;
  } else {
    let text = Buffer.from(value, 'utf8');
    if (text.length > STRING_BYTES) text = Buffer.concat([text.subarray(0, STRING_BYTES), createHash('sha256').update(text).digest()]);
    const escaped: number[] = [STRING];
    for (const byte of text) {
      escaped.push(byte);
      if (byte === 0x00) escaped.push(0xff);
    }
    escaped.push(0x00, 0x00);
    bytes = Buffer.from(escaped);
  }
  if (desc) for (let i = 0; i < bytes.length; i++) bytes[i] = ~bytes[i] & 0xff;
  return bytes;
}

/** The key of a tuple of parts: byte order is the tuple's order, part by part. */
export function encodeKey(parts: readonly KeyPart[]): Buffer {
  return Buffer.concat(parts.map(encodePart));
}

/** The key of ascending parts. */
export const keyOf = (...values: FieldValue[]): Buffer => encodeKey(values.map((value) => ({ value })));

/** The first key after every key that begins with `prefix`. */
export const afterPrefix = (prefix: Buffer): Buffer => Buffer.concat([prefix, Buffer.from([AFTER_EVERY_PART])]);
