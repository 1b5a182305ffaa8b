// signup.feature-disabled (spec 4.7, 7): while the signup feature flag is off, every signup operation of the
// contract answers 503 FEATURE_DISABLED with a Retry-After header in seconds equal to details.retryAfterSeconds.
// The flag is the simulator's (control API); the check puts it back as it found it.
import { defineCheck } from '../../harness/check.js';
import { bodyOf, call, codeOf, control, createBody, createSession, freshSlug, requireSignup, SESSIONS } from './support.js';

export const signupFeatureDisabled = defineCheck({
  id: 'signup.feature-disabled',
  title: 'With signup switched off every signup operation answers 503 FEATURE_DISABLED with Retry-After and details.retryAfterSeconds',
  area: 'signup',
  needs: ['writes', 'admin'],
  async run(ctx) {
    requireSignup(ctx);
    const admin = control(ctx);
    const session = await createSession(ctx, ctx.client, freshSlug('flag'));
    if (!session) return;
    const before = await admin.settings();
    await admin.updateSettings({ enabled: false, retryAfterSeconds: 120 });
    try {
      const path = `${SESSIONS}/${session.id}`;
      const calls: Array<[string, string, string, unknown]> = [
        ['createSignupSession', 'POST', SESSIONS, createBody(freshSlug('flag'))],
        ['getSignupSession', 'GET', path, undefined],
        ['verifySignupEmail', 'POST', `${path}/verify-email`, { code: '123456' }],
        ['verifySignupMagicLink', 'POST', `${path}/verify-magic-link`, { token: 'mlk_conformance' }],
        ['resendSignupVerification', 'POST', `${path}/resend-verification`, undefined],
        ['provisionSignupSession', 'POST', `${path}/provision`, { idempotencyKey: 'conf-flag' }],
      ];
      for (const [operationId, method, target, body] of calls) {
        if (!ctx.contract.operation(operationId)) continue;
        const exchange = await call(ctx.client, method, target, body);
        const details = bodyOf(exchange).details as { retryAfterSeconds?: unknown } | undefined;
        const header = exchange.response.headers['retry-after'];
        if (!ctx.expect(exchange.response.status === 503 && codeOf(exchange) === 'FEATURE_DISABLED', 'signup-feature-disabled', `${operationId} with signup off answered ${exchange.response.status} ${String(codeOf(exchange) ?? '')}, not 503 FEATURE_DISABLED`, exchange)) continue;
        ctx.expect(header !== undefined && /^\d+$/.test(header), 'signup-retry-after', `${operationId}: the 503 has Retry-After ${JSON.stringify(header)}, not a number of seconds (spec 4.7, 7)`, exchange);
        ctx.expect(typeof details?.retryAfterSeconds === 'number' && String(details.retryAfterSeconds) === header, 'signup-retry-after', `${operationId}: details.retryAfterSeconds ${JSON.stringify(details?.retryAfterSeconds)} does not match Retry-After ${JSON.stringify(header)}`, exchange);
      }
    } finally {
      await admin.updateSettings({ enabled: before.enabled, retryAfterSeconds: before.retryAfterSeconds });
    }
    const back = await call(ctx.client, 'GET', `${SESSIONS}/${session.id}`);
    ctx.expect(back.response.status === 200, 'signup-feature-enabled', `with signup on again the session read answered ${back.response.status}`, back);
  },
});
