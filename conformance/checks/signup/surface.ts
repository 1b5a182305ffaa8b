// signup.surface-by-version (spec 4.7, 9.1): verify-magic-link and resend-verification are v1.2.0 additions;
// a server certified against v1.1.0 has no such routes (404), one certified against v1.2.0 serves them.
import { defineCheck } from '../../harness/check.js';
import { call, createSession, freshSlug, hasOperation, requireSignup, SESSIONS } from './support.js';

export const signupSurfaceByVersion = defineCheck({
  id: 'signup.surface-by-version',
  title: 'verify-magic-link and resend-verification exist exactly in the versions that list them',
  area: 'signup',
  needs: ['writes'],
  async run(ctx) {
    requireSignup(ctx);
    const session = await createSession(ctx, ctx.client, freshSlug('surface'));
    if (!session) return;
    for (const [operationId, suffix, body] of [['verifySignupMagicLink', 'verify-magic-link', { token: 'mlk_conformance_wrong' }], ['resendSignupVerification', 'resend-verification', undefined]] as const) {
      const listed = hasOperation(ctx, operationId);
      const exchange = await call(ctx.client, 'POST', `${SESSIONS}/${session.id}/${suffix}`, body, !listed);
      const status = exchange.response.status;
      if (listed) ctx.expect(status !== 404 && status < 500, 'signup-surface', `${operationId} is in ${ctx.contract.version} but answered ${status}`, exchange);
      else ctx.expect(status === 404, 'signup-surface', `${operationId} is not in ${ctx.contract.version} (added in v1.2.0) but answered ${status}, not 404`, exchange);
    }
  },
});
