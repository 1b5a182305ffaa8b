// Test helpers for signup over HTTP: a valid create body, and the verification code read from the control API.
import type { TestSandbox } from '../../testing/contract-client.js';

export const V11 = '/versions/v1.1.0';
export const V12 = '/versions/v1.2.0';
export const SESSIONS = '/api/public/signup/sessions';

export function createBody(slug: string, extra: Record<string, unknown> = {}) {
  return {
    companyName: 'Laurentian Customs Brokers Inc.',
    slug,
    modules: ['ship', 'trade'],
    adminEmail: `ops@${slug}.example`,
    adminFirstName: 'Mireille',
    legalAcceptance: { termsVersion: '2026-09-01', privacyVersion: '2026-09-01', acceptedAt: '2026-11-02T14:04:51.000Z', ip: '203.0.113.42' },
    ...extra,
  };
}

/** Creates a session through `prefix` (a version) and returns its id; no bearer (spec 5.6). */
export async function createSession(sandbox: TestSandbox, prefix: string, slug: string): Promise<string> {
  const res = await sandbox.call('POST', `${prefix}${SESSIONS}`, { token: null, body: createBody(slug) });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.text}`);
  return res.body.sessionId;
}

export async function verification(sandbox: TestSandbox, sessionId: string) {
  const res = await sandbox.admin('GET', `/_sim/signup/sessions/${sessionId}/verification`);
  if (res.status !== 200) throw new Error(`verification answered ${res.status}: ${res.text}`);
  return res.body as { code: string; magicLinkToken: string; failedAttempts: number; locked: boolean };
}

/** Create, verify with the code, provision: the provision response (201 with the secret). */
export async function signUp(sandbox: TestSandbox, prefix: string, slug: string, provisionBody: Record<string, unknown> = { idempotencyKey: `prov-${slug}` }) {
  const sessionId = await createSession(sandbox, prefix, slug);
  const { code } = await verification(sandbox, sessionId);
  const verified = await sandbox.call('POST', `${prefix}${SESSIONS}/${sessionId}/verify-email`, { token: null, body: { code } });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${verified.text}`);
  const provisioned = await sandbox.call('POST', `${prefix}${SESSIONS}/${sessionId}/provision`, { token: null, body: provisionBody });
  return { sessionId, provisioned };
}
