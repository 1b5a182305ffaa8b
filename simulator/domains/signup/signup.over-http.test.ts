// Signup sessions of the archived contracts over HTTP (spec 3.5, 4.7, 7), through a sandbox serving every
// version (`--contract all`): every response is checked against the contract of the version it addressed.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { MAX_VERIFICATION_ATTEMPTS, SESSION_TTL_MS, VERIFICATION_TTL_MS } from './signup-sessions.js';
import { createBody, createSession, SESSIONS, signUp, V11, V12, verification } from './signup.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});
const start = async () => (sandbox = await startTestSandbox({ config: { contract: 'all' } }));
const pub = { token: null } as const;

describe('signup sessions over HTTP (archived contracts)', () => {
  it.each([V11, V12])('runs create -> verify-email -> provision -> get end to end without a bearer on %s, and the key gets a token', async (prefix) => {
    const s = await start();
    const created = await s.call('POST', `${prefix}${SESSIONS}`, { ...pub, body: createBody('laurentian-customs') });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('PENDING_EMAIL_VERIFICATION');
    expect(Date.parse(created.body.verificationExpiresAt) - Date.parse(created.body.expiresAt)).toBe(VERIFICATION_TTL_MS - SESSION_TTL_MS);
    const id = created.body.sessionId;
    const { code } = await verification(s, id);
    expect(code).toMatch(/^\d{6}$/);
    const verified = await s.call('POST', `${prefix}${SESSIONS}/${id}/verify-email`, { ...pub, body: { code } });
    expect(verified.body).toEqual({ sessionId: id, status: 'EMAIL_VERIFIED' });

    const provisioned = await s.call('POST', `${prefix}${SESSIONS}/${id}/provision`, { ...pub, body: { idempotencyKey: 'p-1', integrationKeyTemplate: { name: 'pipeline', scopes: ['sima:write', 'jobs:read'] } } });
    expect(provisioned.status).toBe(201);
    expect(provisioned.body).toMatchObject({ sessionId: id, status: 'PROVISIONED', tenantSlug: 'laurentian-customs' });
    const { tenantId, integrationSecret, integrationKeyId, clerkOrgId } = provisioned.body;
    expect(clerkOrgId).toMatch(/^org_sbx_/);
    expect(await s.sim.domains.tenants.get(tenantId)).toMatchObject({ name: 'Laurentian Customs Brokers Inc.', slug: 'laurentian-customs', status: 'active' });

    // The secret is shown once: a replay with the same key and payload answers the outcome without it.
    const replay = await s.call('POST', `${prefix}${SESSIONS}/${id}/provision`, { ...pub, body: { idempotencyKey: 'p-1', integrationKeyTemplate: { name: 'pipeline', scopes: ['sima:write', 'jobs:read'] } } });
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({ status: 'PROVISIONED', tenantId, integrationKeyId });
    expect(replay.body.integrationSecret).toBeUndefined();
    const otherPayload = await s.call('POST', `${prefix}${SESSIONS}/${id}/provision`, { ...pub, body: { idempotencyKey: 'p-1' } });
    expect(otherPayload.status).toBe(409);
    const otherKey = await s.call('POST', `${prefix}${SESSIONS}/${id}/provision`, { ...pub, body: { idempotencyKey: 'p-2' } });
    expect(otherKey.status).toBe(409);

    const detail = await s.call('GET', `${prefix}${SESSIONS}/${id}`, pub);
    expect(detail.body).toMatchObject({ sessionId: id, status: 'PROVISIONED', slug: 'laurentian-customs', modules: ['ship', 'trade'], tenantId });

    // The key works on the current surface: token exchange, then a tenant read with the key's scopes.
    const token = await s.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': integrationSecret } });
    expect(token.status).toBe(200);
    const jobs = await s.call('GET', '/api/jobs', { token: token.body.access_token });
    expect(jobs.body).toEqual({ jobs: [], count: 0 });
  });

  it('refuses what the contract refuses (400) and a taken or reserved slug (409)', async () => {
    const s = await start();
    const base = createBody('northwind-imports');
    const refused = [
      { ...base, modules: [] },
      { ...base, modules: ['billing'] },
      { ...base, slug: 'Northwind' },
      { ...base, slug: 'ab' },
      { ...base, legalAcceptance: { ...base.legalAcceptance, ip: undefined } },
      { ...base, adminEmail: 'not-an-email' },
      Object.fromEntries(Object.entries(base).filter(([k]) => k !== 'companyName')),
    ];
    for (const body of refused) expect((await s.call('POST', `${V12}${SESSIONS}`, { ...pub, body })).status).toBe(400);
    expect((await s.call('POST', `${V12}${SESSIONS}`, { ...pub, body: base })).status).toBe(201);
    const taken = await s.call('POST', `${V11}${SESSIONS}`, { ...pub, body: base });
    expect(taken.status).toBe(409);
    expect(taken.body.details).toMatchObject({ field: 'slug', reason: 'slug_taken' });
    const reserved = await s.call('POST', `${V12}${SESSIONS}`, { ...pub, body: createBody('sandbox') });
    expect(reserved.body.details).toMatchObject({ field: 'slug', reason: 'slug_reserved' });
  });

  it('counts wrong codes and locks verification after the fifth; resend (v1.2.0) issues a new code and unlocks', async () => {
    const s = await start();
    const id = await createSession(s, V12, 'wrong-codes');
    const { code } = await verification(s, id);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let attempt = 1; attempt < MAX_VERIFICATION_ATTEMPTS; attempt++) {
      const res = await s.call('POST', `${V12}${SESSIONS}/${id}/verify-email`, { ...pub, body: { code: wrong } });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual({ field: 'code', attemptsRemaining: MAX_VERIFICATION_ATTEMPTS - attempt });
    }
    const locking = await s.call('POST', `${V12}${SESSIONS}/${id}/verify-email`, { ...pub, body: { code: wrong } });
    expect(locking.status).toBe(409);
    expect(locking.body.details.reason).toBe('verification_locked');
    const right = await s.call('POST', `${V12}${SESSIONS}/${id}/verify-email`, { ...pub, body: { code } });
    expect(right.status).toBe(409);

    const resent = await s.call('POST', `${V12}${SESSIONS}/${id}/resend-verification`, pub);
    expect(resent.status).toBe(200);
    expect(resent.body.status).toBe('PENDING_EMAIL_VERIFICATION');
    const fresh = await verification(s, id);
    expect(fresh).toMatchObject({ failedAttempts: 0, locked: false });
    const viaLink = await s.call('POST', `${V12}${SESSIONS}/${id}/verify-magic-link`, { ...pub, body: { token: fresh.magicLinkToken } });
    expect(viaLink.body).toEqual({ sessionId: id, status: 'EMAIL_VERIFIED' });
    expect((await s.call('POST', `${V12}${SESSIONS}/${id}/resend-verification`, pub)).status).toBe(409);
  });

  it('has no magic link and no resend in v1.1.0 (404), and serves no signup on v1.3.0', async () => {
    const s = await start();
    const id = await createSession(s, V11, 'old-client');
    expect((await s.call('POST', `${V11}${SESSIONS}/${id}/verify-magic-link`, { ...pub, body: { token: 'x' } })).status).toBe(404);
    expect((await s.call('POST', `${V11}${SESSIONS}/${id}/resend-verification`, pub)).status).toBe(404);
    expect((await s.call('POST', SESSIONS, { ...pub, body: createBody('current-surface') })).status).toBe(404);
  });

  it('expires a session on the virtual clock after expiresAt, frees its slug, and refuses to move it', async () => {
    const s = await start();
    const id = await createSession(s, V11, 'slow-signer');
    s.sim.deps.clock.advance(SESSION_TTL_MS - 1000);
    expect((await s.call('GET', `${V11}${SESSIONS}/${id}`, pub)).body.status).toBe('PENDING_EMAIL_VERIFICATION');
    s.sim.deps.clock.advance(1000);
    const expired = await s.call('GET', `${V11}${SESSIONS}/${id}`, pub);
    expect(expired.body).toMatchObject({ status: 'EXPIRED', updatedAt: expired.body.expiresAt });
    const { code } = await verification(s, id);
    expect((await s.call('POST', `${V11}${SESSIONS}/${id}/verify-email`, { ...pub, body: { code } })).status).toBe(409);
    expect((await s.call('POST', `${V11}${SESSIONS}`, { ...pub, body: createBody('slow-signer') })).status).toBe(201);
  });

  it('refuses an expired code (409) before the session expires', async () => {
    const s = await start();
    const id = await createSession(s, V11, 'late-code');
    const { code } = await verification(s, id);
    s.sim.deps.clock.advance(VERIFICATION_TTL_MS + 1000);
    const late = await s.call('POST', `${V11}${SESSIONS}/${id}/verify-email`, { ...pub, body: { code } });
    expect(late.status).toBe(409);
    expect(late.body.details.reason).toBe('verification_expired');
  });

  it('holds a slug of the review list in REVIEW_REQUIRED (202) until an operator approves or rejects it', async () => {
    const s = await start();
    const { sessionId, provisioned } = await signUp(s, V12, 'harbourview-imports');
    expect(provisioned.status).toBe(202);
    expect(provisioned.body).toMatchObject({ status: 'REVIEW_REQUIRED', tenantSlug: 'harbourview-imports' });
    expect((await s.call('GET', `${V12}${SESSIONS}/${sessionId}`, pub)).body.reviewReason).toMatch(/review list/);
    expect((await s.admin('POST', `/_sim/signup/sessions/${sessionId}/review`, { decision: 'approve' })).body.status).toBe('PROVISIONING');
    const done = await s.call('POST', `${V12}${SESSIONS}/${sessionId}/provision`, { ...pub, body: { idempotencyKey: 'prov-harbourview-imports' } });
    expect(done.status).toBe(201);
    expect(done.body.integrationSecret).toBeTruthy();

    const other = await signUp(s, V12, 'review-me-too');
    const rejected = await s.admin('POST', `/_sim/signup/sessions/${other.sessionId}/review`, { decision: 'reject', reason: 'Company could not be verified.' });
    expect(rejected.body).toMatchObject({ status: 'FAILED', failureReason: 'Company could not be verified.' });
    expect((await s.admin('POST', `/_sim/signup/sessions/${other.sessionId}/review`, { decision: 'approve' })).status).toBe(409);
    expect((await s.call('POST', `${V12}${SESSIONS}/${other.sessionId}/provision`, { ...pub, body: { idempotencyKey: 'prov-review-me-too' } })).status).toBe(409);
  });

  it('answers 202 PROVISIONING while provisioning takes sandbox time, then 201 with the secret', async () => {
    const s = await start();
    await s.admin('PUT', '/_sim/signup/settings', { provisioningSeconds: 30 });
    const { sessionId, provisioned } = await signUp(s, V11, 'takes-time');
    expect(provisioned.status).toBe(202);
    expect(provisioned.body.status).toBe('PROVISIONING');
    expect((await s.call('POST', `${V11}${SESSIONS}/${sessionId}/provision`, { ...pub, body: { idempotencyKey: 'prov-takes-time' } })).status).toBe(202);
    s.sim.deps.clock.advance(30_000);
    expect((await s.call('GET', `${V11}${SESSIONS}/${sessionId}`, pub)).body.status).toBe('PROVISIONED');
    const done = await s.call('POST', `${V11}${SESSIONS}/${sessionId}/provision`, { ...pub, body: { idempotencyKey: 'prov-takes-time' } });
    expect(done.status).toBe(201);
    expect(done.body.integrationSecret).toBeTruthy();
  });

  it('refuses provision before the email is verified (409) and an unknown session (404)', async () => {
    const s = await start();
    const id = await createSession(s, V12, 'too-eager');
    expect((await s.call('POST', `${V12}${SESSIONS}/${id}/provision`, { ...pub, body: { idempotencyKey: 'k' } })).status).toBe(409);
    expect((await s.call('GET', `${V12}${SESSIONS}/9e3d5a17-c2b4-4f68-8a91-7d0e6b2c4f35`, pub)).status).toBe(404);
    expect((await s.call('POST', `${V12}${SESSIONS}/${id}/provision`, { ...pub, body: {} })).status).toBe(400);
  });

  it('answers 503 FEATURE_DISABLED with Retry-After on every signup operation while the sandbox flag is off', async () => {
    const s = await start();
    const id = await createSession(s, V12, 'before-the-switch');
    const settings = await s.admin('PUT', '/_sim/signup/settings', { enabled: false, retryAfterSeconds: 600 });
    expect(settings.body).toEqual({ enabled: false, retryAfterSeconds: 600, provisioningSeconds: 0 });
    const calls: Array<[string, string, unknown]> = [
      ['POST', `${V12}${SESSIONS}`, createBody('after-the-switch')],
      ['GET', `${V12}${SESSIONS}/${id}`, undefined],
      ['POST', `${V12}${SESSIONS}/${id}/verify-email`, { code: '123456' }],
      ['POST', `${V12}${SESSIONS}/${id}/verify-magic-link`, { token: 'x' }],
      ['POST', `${V12}${SESSIONS}/${id}/resend-verification`, undefined],
      ['POST', `${V11}${SESSIONS}/${id}/provision`, { idempotencyKey: 'k' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await s.call(method, path, { ...pub, body });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('600');
      expect(res.body).toMatchObject({ code: 'FEATURE_DISABLED', details: { retryAfterSeconds: 600 } });
    }
    await s.admin('PUT', '/_sim/signup/settings', { enabled: true });
    expect((await s.call('GET', `${V12}${SESSIONS}/${id}`, pub)).status).toBe(200);
  });
});
