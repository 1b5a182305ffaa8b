// Receiver-side verification of a webhook signature (spec 6, "Signature"): the message is the
// X-SVC-Timestamp value, a literal dot and the raw JSON body; the digest is the hex HMAC-SHA256 of it keyed
// with the secret; the header is `v1=` followed by the digest. Receivers check the `v1=` prefix, compare in
// constant time, and may reject timestamps more than 300 seconds away from now.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** spec 6: the only signature scheme. */
const SIGNATURE_PREFIX = 'v1=';
/** spec 6: timestamps more than 300 seconds old may be rejected. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

export type SignatureProblem =
  | 'missing-signature' // no X-SVC-Signature header
  | 'missing-prefix' // the header does not start with `v1=`
  | 'invalid-timestamp' // X-SVC-Timestamp absent or not an integer number of seconds
  | 'mismatch' // the digest is not the HMAC of `<timestamp>.<raw body>` with this secret
  | 'stale-timestamp'; // the timestamp is further from now than the tolerance

export interface SignatureVerdict {
  valid: boolean;
  problem?: SignatureProblem;
  /** A sentence for reports. */
  detail: string;
}

export interface VerifyOptions {
  /** "Now" in Unix seconds: the server's notion of time when known (a sandbox's clock may be virtual). */
  nowSeconds?: number;
  /** Window around now; Infinity disables the timestamp check. */
  toleranceSeconds?: number;
}

/** The hex HMAC-SHA256 of `<timestamp>.<raw body>` keyed with the secret (spec 6). */
function signatureDigest(secret: string, timestamp: string | number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/** The header value a correct sender puts in X-SVC-Signature. */
export function signatureHeader(secret: string, timestamp: string | number, rawBody: string): string {
  return SIGNATURE_PREFIX + signatureDigest(secret, timestamp, rawBody);
}

/**
 * Verifies a delivery's signature as a receiver should. The digest is checked before the timestamp window so
 * that a forged or wrongly built signature is always reported as a mismatch, never hidden behind a stale
 * timestamp. Never throws: digests of another length are a mismatch, not an exception.
 */
export function verifySignature(
  secret: string,
  timestampHeader: string | undefined,
  rawBody: string,
  signatureHeaderValue: string | undefined,
  options: VerifyOptions = {},
): SignatureVerdict {
  if (signatureHeaderValue === undefined || signatureHeaderValue === '') {
    return { valid: false, problem: 'missing-signature', detail: 'the delivery has no X-SVC-Signature header' };
  }
  const value = signatureHeaderValue.trim();
  if (!value.startsWith(SIGNATURE_PREFIX)) {
    return { valid: false, problem: 'missing-prefix', detail: `X-SVC-Signature ${JSON.stringify(truncate(value))} does not start with ${SIGNATURE_PREFIX}` };
  }
  const timestamp = (timestampHeader ?? '').trim();
  if (!/^[0-9]+$/.test(timestamp)) {
    return { valid: false, problem: 'invalid-timestamp', detail: `X-SVC-Timestamp ${JSON.stringify(timestampHeader ?? null)} is not a Unix timestamp in seconds` };
  }
  const given = value.slice(SIGNATURE_PREFIX.length);
  // Hex is case-insensitive; the comparison runs on the lower-case form.
  const provided = Buffer.from(/^[0-9a-fA-F]+$/.test(given) ? given.toLowerCase() : given, 'utf8');
  const expected = Buffer.from(signatureDigest(secret, timestamp, rawBody), 'utf8');
  // timingSafeEqual needs equal lengths; a different length is a mismatch (the length is not secret).
  const matches = provided.length === expected.length && timingSafeEqual(provided, expected);
  if (!matches) {
    return { valid: false, problem: 'mismatch', detail: 'X-SVC-Signature is not the HMAC-SHA256 of "<X-SVC-Timestamp>.<raw body>" keyed with the secret' };
  }
  const tolerance = options.toleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS;
  const now = options.nowSeconds ?? Date.now() / 1000;
  const skew = Math.abs(now - Number(timestamp));
  if (skew > tolerance) {
    return { valid: false, problem: 'stale-timestamp', detail: `X-SVC-Timestamp ${timestamp} is ${Math.round(skew)} s away from now (${Math.floor(now)}), more than ${tolerance} s` };
  }
  return { valid: true, detail: 'the signature verifies' };
}

const truncate = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}…` : text);
