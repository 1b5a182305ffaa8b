// The variant limits.raised-request-caps (README "Variants"): the request length caps the contract marks as
// the sandbox's own (`x-sandbox-defined-bounds`) are four times as long, and nothing else changes: a value
// beyond the raised cap, a bound the spec states (Idempotency-Key, spec 8.5: 1 to 200 characters) and any
// other invalid value are refused as before.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** A landed-cost quote whose `description` (contract maxLength 2000, marked the sandbox's) is `length` long. */
const QUOTE = { productValue: 1200, hsCode: '6109.10', originCountry: 'IN', destinationCountry: 'US' };
const quote = (s: TestSandbox, length: number, extra: Record<string, unknown> = {}) => s.call('POST', '/api/trade/landed-cost', { body: { ...QUOTE, description: 'x'.repeat(length), ...extra }, unchecked: true });

describe('limits.raised-request-caps', () => {
  it('takes a string up to four times a sandbox-defined cap, and refuses one beyond it', async () => {
    sandbox = await startTestSandbox();
    expect((await quote(sandbox, 2001)).status).toBe(400);
    await sandbox.admin('PUT', '/_sim/defects', { active: ['limits.raised-request-caps'] });
    expect((await quote(sandbox, 2001)).status).toBe(200);
    expect((await quote(sandbox, 8000)).status).toBe(200);
    const beyond = await quote(sandbox, 8001);
    expect([beyond.status, beyond.body.details?.field]).toEqual([400, 'description']);
  });

  it('keeps every other refusal: another error beside a raised cap, and a bound the spec states', async () => {
    sandbox = await startTestSandbox();
    await sandbox.admin('PUT', '/_sim/defects', { active: ['limits.raised-request-caps'] });
    expect((await quote(sandbox, 2001, { currency: 'usd' })).status).toBe(400);
    const key = await sandbox.call('POST', '/api/sima/batch', { body: { skus: null }, headers: { 'Idempotency-Key': 'k'.repeat(201) }, unchecked: true });
    expect([key.status, key.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});
