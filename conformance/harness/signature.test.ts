import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from './signature.js';

const secret = 'whsec_unit_test_secret';
const timestamp = '1793628309';
const body = JSON.stringify({ id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', event: 'job.completed', job: { id: 'x', progress: 100 } });
const now = { nowSeconds: 1793628309 + 12 };

describe('verifySignature (spec 6)', () => {
  it('accepts v1= and the hex HMAC-SHA256 of "<timestamp>.<raw body>" keyed with the secret', () => {
    const header = `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
    expect(signatureHeader(secret, timestamp, body)).toBe(header);
    expect(verifySignature(secret, timestamp, body, header, now)).toEqual({ valid: true, detail: 'the signature verifies' });
  });

  it('accepts upper-case hex', () => {
    const header = `v1=${signatureHeader(secret, timestamp, body).slice(3).toUpperCase()}`;
    expect(verifySignature(secret, timestamp, body, header, now).valid).toBe(true);
  });

  it('refuses a signature made with another secret', () => {
    const verdict = verifySignature(secret, timestamp, body, signatureHeader('another secret', timestamp, body), now);
    expect(verdict).toMatchObject({ valid: false, problem: 'mismatch' });
  });

  it('refuses a digest without the v1= prefix, and a missing header', () => {
    const digest = signatureHeader(secret, timestamp, body).slice(3);
    expect(verifySignature(secret, timestamp, body, digest, now)).toMatchObject({ valid: false, problem: 'missing-prefix' });
    expect(verifySignature(secret, timestamp, body, `v2=${digest}`, now)).toMatchObject({ valid: false, problem: 'missing-prefix' });
    expect(verifySignature(secret, timestamp, body, undefined, now)).toMatchObject({ valid: false, problem: 'missing-signature' });
    expect(verifySignature(secret, timestamp, body, '', now)).toMatchObject({ valid: false, problem: 'missing-signature' });
  });

  it('refuses a tampered body and a signature over the body alone', () => {
    const header = signatureHeader(secret, timestamp, body);
    expect(verifySignature(secret, timestamp, body.replace('100', '99'), header, now)).toMatchObject({ valid: false, problem: 'mismatch' });
    expect(verifySignature(secret, timestamp, `${body} `, header, now)).toMatchObject({ valid: false, problem: 'mismatch' });
    const bodyOnly = `v1=${createHmac('sha256', secret).update(body).digest('hex')}`;
    expect(verifySignature(secret, timestamp, body, bodyOnly, now)).toMatchObject({ valid: false, problem: 'mismatch' });
  });

  it('refuses a signature replayed under another timestamp', () => {
    const header = signatureHeader(secret, timestamp, body);
    expect(verifySignature(secret, String(Number(timestamp) + 1), body, header, now)).toMatchObject({ valid: false, problem: 'mismatch' });
  });

  it('refuses a timestamp more than 300 s from now, in either direction, and accepts 300 s exactly', () => {
    const header = signatureHeader(secret, timestamp, body);
    const at = (offset: number) => ({ nowSeconds: Number(timestamp) + offset });
    expect(verifySignature(secret, timestamp, body, header, at(301))).toMatchObject({ valid: false, problem: 'stale-timestamp' });
    expect(verifySignature(secret, timestamp, body, header, at(-301))).toMatchObject({ valid: false, problem: 'stale-timestamp' });
    expect(verifySignature(secret, timestamp, body, header, at(300)).valid).toBe(true);
    expect(verifySignature(secret, timestamp, body, header, { ...at(5000), toleranceSeconds: Infinity }).valid).toBe(true);
    // Without a "now", the local clock is used: a timestamp from 2026 is stale today or later.
    expect(verifySignature(secret, '1000', body, signatureHeader(secret, '1000', body))).toMatchObject({ valid: false, problem: 'stale-timestamp' });
  });

  it('refuses a timestamp that is not an integer number of seconds', () => {
    for (const bad of [undefined, '', '1793628309.5', '-5', 'abc', '2026-11-02T14:05:12Z']) {
      const header = signatureHeader(secret, bad ?? '', body);
      expect(verifySignature(secret, bad, body, header, now)).toMatchObject({ valid: false, problem: 'invalid-timestamp' });
    }
  });

  it('reports digests of another length as a mismatch without throwing', () => {
    const digest = signatureHeader(secret, timestamp, body).slice(3);
    for (const header of ['v1=', 'v1=abc', `v1=${digest}00`, `v1=${digest.slice(0, 63)}`, 'v1=é', `v1=${'€'.repeat(64)}`]) {
      expect(() => verifySignature(secret, timestamp, body, header, now)).not.toThrow();
      expect(verifySignature(secret, timestamp, body, header, now)).toMatchObject({ valid: false, problem: 'mismatch' });
    }
  });
});
