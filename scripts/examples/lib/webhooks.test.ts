// The receiver's signature check (spec 6) and its handling of deliveries: verified ones acknowledged once
// per delivery id, others refused.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startWebhookReceiver, verifySignature } from './webhooks.js';

const NOW = 1_800_000_000;
const body = Buffer.from('{"id":"d-1","event":"job.completed","job":{"id":"j-1","type":"sima_validation"}}');
const sign = (secret: string, timestamp: number, raw: Buffer | string) => 'v1=' + createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex');
const headers = (signature: string | undefined, timestamp: number | string = NOW) => ({ 'x-svc-signature': signature, 'x-svc-timestamp': String(timestamp) });

describe('verifySignature', () => {
  it('accepts v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>"> under the secret', () => {
    expect(verifySignature('s3cret', headers(sign('s3cret', NOW, body)), body, NOW)).toEqual({ ok: true });
  });

  it.each([
    ['another secret', headers(sign('other', NOW, body)), 'signature mismatch'],
    ['the body re-serialized', headers(sign('s3cret', NOW, JSON.stringify(JSON.parse(body.toString()), null, 1))), 'signature mismatch'],
    ['no v1= prefix', headers(sign('s3cret', NOW, body).slice(3)), 'X-SVC-Signature does not start with v1='],
    ['no signature', headers(undefined), 'no X-SVC-Signature header'],
    ['a truncated digest', headers(sign('s3cret', NOW, body).slice(0, 40)), 'signature mismatch'],
    ['a timestamp that is not a number', headers(sign('s3cret', NOW, body), 'soon'), 'X-SVC-Timestamp is not a Unix timestamp'],
  ])('refuses %s', (_, given, reason) => {
    expect(verifySignature('s3cret', given, body, NOW)).toEqual({ ok: false, reason });
  });

  it('refuses a correctly signed delivery more than 300 s old (a replay), accepts one exactly 300 s old', () => {
    expect(verifySignature('s3cret', headers(sign('s3cret', NOW - 301, body), NOW - 301), body, NOW)).toMatchObject({ ok: false, reason: expect.stringContaining('300 s old') });
    expect(verifySignature('s3cret', headers(sign('s3cret', NOW - 300, body), NOW - 300), body, NOW)).toEqual({ ok: true });
  });
});

describe('startWebhookReceiver', () => {
  it('answers 204 to a verified delivery and resolves its job once, 401 to a forged one, and 204 again to a retry of the same delivery id', async () => {
    const lines: string[] = [];
    const receiver = await startWebhookReceiver({ log: (l) => lines.push(l), now: () => NOW });
    try {
      const { webhookSecret, webhookUrl } = receiver.subscription();
      const post = (signature: string, attempt: number) =>
        fetch(webhookUrl, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-svc-timestamp': String(NOW), 'x-svc-signature': signature, 'x-svc-delivery-id': 'd-1', 'x-svc-attempt': String(attempt) } });
      expect((await post(sign('guess', NOW, body), 1)).status).toBe(401);
      expect((await post(sign(webhookSecret, NOW, body), 2)).status).toBe(204);
      expect((await post(sign(webhookSecret, NOW, body), 3)).status).toBe(204);
      await expect(receiver.waitFor('j-1', 1000)).resolves.toMatchObject({ id: 'd-1', event: 'job.completed' });
      expect(lines).toEqual([
        '  webhook: rejected a delivery: signature mismatch',
        '  webhook: job.completed for sima_validation job j-1, signature verified (delivery d-1, attempt 2)',
        '  webhook: delivery d-1 again (attempt 3): already handled',
      ]);
      await expect(receiver.waitFor('j-2', 50)).rejects.toThrow('no webhook for job j-2');
    } finally {
      await receiver.close();
    }
  });
});
