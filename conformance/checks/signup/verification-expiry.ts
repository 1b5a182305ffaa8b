// signup.verification-expiry (spec 4.7, 3.5): the 201 of a new session names `verificationExpiresAt` beside the
// session's own `expiresAt`: the right code sent after verificationExpiresAt no longer verifies the email.
// The sandbox clock (control API) is moved to a second past verificationExpiresAt, while the session itself
// is still alive (before expiresAt), so the refusal can only be the verification's expiry: the call is not
// 2xx (spec 4.7 names 400 and 409 among its errors; which one is not said, so any 4xx will do), and the
// session does not read EMAIL_VERIFIED after it. A server whose verification lives as long as the session
// (verificationExpiresAt at or after expiresAt) leaves nothing to judge here: signup.session-expiry holds it.
import { defineCheck } from '../../harness/check.js';
import { bodyOf, call, control, createBody, freshSlug, requireSignup, SESSIONS } from './support.js';

export const signupVerificationExpiry = defineCheck({
  id: 'signup.verification-expiry',
  title: 'The right verification code sent after verificationExpiresAt (the session still alive) does not verify the email',
  area: 'signup',
  needs: ['writes', 'admin'],
  async run(ctx) {
    requireSignup(ctx);
    const admin = control(ctx);
    const created = await call(ctx.client, 'POST', SESSIONS, createBody(freshSlug('verify-expiry')));
    const body = bodyOf(created);
    if (!ctx.expect(created.response.status === 201 && typeof body.sessionId === 'string', 'signup-created', `POST ${SESSIONS} with every required field answered ${created.response.status}, not 201 (spec 4.7)`, created)) return;
    const verifyBy = Date.parse(String(body.verificationExpiresAt));
    const sessionBy = Date.parse(String(body.expiresAt));
    if (!ctx.expect(!Number.isNaN(verifyBy) && !Number.isNaN(sessionBy), 'signup-created', `the 201 lacks a date-time verificationExpiresAt or expiresAt: ${JSON.stringify({ verificationExpiresAt: body.verificationExpiresAt, expiresAt: body.expiresAt })} (spec 4.7)`, created)) return;
    if (verifyBy + 2_000 >= sessionBy) ctx.skip(`verificationExpiresAt ${body.verificationExpiresAt} is not before the session's expiresAt ${body.expiresAt}: the session's expiry ends verification (signup.session-expiry)`);
    const { code } = await admin.verification(body.sessionId);
    // A session belongs to no tenant yet: it follows the sandbox-wide clock, not the run's (harness/run-scope.ts).
    const clock = Date.parse((await ctx.admin!.sandboxClock()).now);
    const seconds = (verifyBy - clock) / 1000 + 1;
    if (!ctx.expect(seconds > 0 && seconds < 366 * 86_400, 'signup-verification-expires-at', `verificationExpiresAt ${body.verificationExpiresAt} is not a date within a year after the clock (${new Date(clock).toISOString()})`, created)) return;
    await ctx.admin!.advanceSandboxClock(seconds);
    const path = `${SESSIONS}/${body.sessionId}/verify-email`;
    const late = await call(ctx.client, 'POST', path, { code });
    const what = `POST ${path} with the right code a second after verificationExpiresAt ${body.verificationExpiresAt} (the session lives until ${body.expiresAt})`;
    ctx.expect(late.response.status >= 400 && late.response.status < 500, 'signup-verification-expired', `${what} answered ${late.response.status}, not a refusal (spec 4.7: the code expires at verificationExpiresAt)`, late);
    const read = await call(ctx.client, 'GET', `${SESSIONS}/${body.sessionId}`);
    ctx.expect(bodyOf(read).status !== 'EMAIL_VERIFIED', 'signup-verification-expired', `after ${what}, the session reads EMAIL_VERIFIED (spec 4.7)`, read);
  },
});
