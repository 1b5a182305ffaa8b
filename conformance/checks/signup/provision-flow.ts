// signup.provision-flow (spec 4.7, 5.1): a verified session provisions with a required idempotencyKey to a
// real tenant whose integration key (its secret shown once) exchanges for a bearer that tenant endpoints take;
// the same key and payload replays the outcome (same tenant, no secret), another payload is 409.
import { defineCheck } from '../../harness/check.js';
import { bodyOf, call, codeOf, control, createSession, freshSlug, requireSignup, SESSIONS } from './support.js';

export const signupProvisionFlow = defineCheck({
  id: 'signup.provision-flow',
  title: 'Provisioning a verified signup creates a working tenant and key, shows the secret once and replays by idempotencyKey',
  area: 'signup',
  needs: ['writes', 'admin'],
  async run(ctx) {
    requireSignup(ctx);
    const admin = control(ctx);
    const session = await createSession(ctx, ctx.client, freshSlug('provision'));
    if (!session) return;
    const path = `${SESSIONS}/${session.id}`;
    const missingKey = await call(ctx.client, 'POST', `${path}/provision`, {});
    ctx.expect(missingKey.response.status === 400, 'signup-provision-key-required', `provision without idempotencyKey answered ${missingKey.response.status}, not 400 (spec 4.7: required)`, missingKey);
    const { code } = await admin.verification(session.id);
    const verified = await call(ctx.client, 'POST', `${path}/verify-email`, { code });
    if (!ctx.expect(verified.response.status === 200 && bodyOf(verified).status === 'EMAIL_VERIFIED', 'signup-verified', `verify-email with the emailed code answered ${verified.response.status} ${JSON.stringify(bodyOf(verified).status)} (spec 3.5: EMAIL_VERIFIED)`, verified)) return;

    const body = { idempotencyKey: `conf-${session.id}` };
    const first = await call(ctx.client, 'POST', `${path}/provision`, body);
    const outcome = bodyOf(first);
    if (first.response.status === 202) ctx.skip(`provision answered 202 ${outcome.status}: the tenant is not provisioned at once on this server`);
    if (!ctx.expect(first.response.status === 201 && outcome.status === 'PROVISIONED', 'signup-provisioned', `provision answered ${first.response.status} ${JSON.stringify(outcome.status)}`, first)) return;
    if (!ctx.expect(typeof outcome.integrationSecret === 'string' && typeof outcome.tenantId === 'string', 'signup-provisioned', 'a completed provisioning carries no integrationSecret or tenantId (spec 4.7: the secret is returned once)', first)) return;

    // The key is real: it exchanges for a bearer, and that bearer reads the new tenant's (empty) job list.
    const tenant = ctx.client.withApiKey(outcome.integrationSecret);
    const token = await tenant.call('POST', '/api/auth/token/integration', { auth: { apiKey: outcome.integrationSecret } });
    if (!ctx.expect(token.response.status === 200, 'signup-key-works', `the provisioned key's token exchange answered ${token.response.status}`, token)) return;
    const jobs = await tenant.call('GET', '/api/jobs?limit=1', { auth: { bearer: bodyOf(token).access_token } });
    ctx.expect(jobs.response.status === 200, 'signup-key-works', `GET /api/jobs with the provisioned tenant's bearer answered ${jobs.response.status}`, jobs);

    const replay = await call(ctx.client, 'POST', `${path}/provision`, body);
    const again = bodyOf(replay);
    ctx.expect(replay.response.status === 201 && again.tenantId === outcome.tenantId, 'signup-provision-replay', `the same idempotencyKey answered ${replay.response.status} with tenant ${JSON.stringify(again.tenantId)}, not 201 with tenant ${outcome.tenantId}`, replay);
    ctx.expect(again.integrationSecret === undefined, 'signup-secret-once', 'a replayed provision shows the integration secret again (spec 4.7, 5.1: revealed once)', replay);
    const conflict = await call(ctx.client, 'POST', `${path}/provision`, { ...body, integrationKeyTemplate: { name: 'another payload' } });
    ctx.expect(conflict.response.status === 409 && codeOf(conflict) === 'ACTION_NOT_ALLOWED', 'signup-provision-conflict', `the same idempotencyKey with another payload answered ${conflict.response.status}, not 409 ACTION_NOT_ALLOWED`, conflict);
  },
});
