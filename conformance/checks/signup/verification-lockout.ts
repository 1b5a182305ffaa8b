// signup.verification-lockout (spec 4.7; the lock-out is sandbox-defined and documented in the contract):
// a wrong six-digit code never verifies; wrong codes are counted, and after a few the session locks (409 or
// 429), so even the right code is then refused.
import { defineCheck } from '../../harness/check.js';
import { bodyOf, call, control, createSession, freshSlug, requireSignup, SESSIONS } from './support.js';

/** How many wrong codes a server may take before it must lock ("a few"). */
const LOCKOUT_WITHIN = 10;

export const signupVerificationLockout = defineCheck({
  id: 'signup.verification-lockout',
  title: 'A wrong verification code never verifies, and wrong codes lock verification after a few attempts',
  area: 'signup',
  needs: ['writes', 'admin'],
  async run(ctx) {
    requireSignup(ctx);
    const admin = control(ctx);
    const session = await createSession(ctx, ctx.client, freshSlug('lockout'));
    if (!session) return;
    const { code } = await admin.verification(session.id);
    const wrong = (n: number) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0');
    let locked = false;
    for (let attempt = 0; attempt < LOCKOUT_WITHIN && !locked; attempt++) {
      const exchange = await call(ctx.client, 'POST', `${SESSIONS}/${session.id}/verify-email`, { code: wrong(attempt) });
      const status = exchange.response.status;
      if (!ctx.expect(status !== 200, 'signup-wrong-code-refused', `verify-email with a wrong code (attempt ${attempt + 1}) answered 200 ${JSON.stringify(bodyOf(exchange))}`, exchange)) return;
      ctx.expect(status === 400 || status === 409 || status === 429, 'signup-wrong-code-refused', `a wrong code answered ${status}, not 400 (or 409/429 once locked)`, exchange);
      locked = status === 409 || status === 429;
    }
    if (!ctx.expect(locked, 'signup-lockout', `${LOCKOUT_WITHIN} wrong codes in a row never locked verification (every one answered 400)`)) return;
    const right = await call(ctx.client, 'POST', `${SESSIONS}/${session.id}/verify-email`, { code });
    ctx.expect(right.response.status === 409 || right.response.status === 429, 'signup-lockout', `after the lock-out the right code answered ${right.response.status}, not 409 or 429`, right);
  },
});
