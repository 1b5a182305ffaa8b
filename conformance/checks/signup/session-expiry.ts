// signup.session-expiry (spec 3.5, 4.7): a session not verified and provisioned before its expiresAt reads
// EXPIRED after it, and is no longer verified. Moves the sandbox clock (control API).
import { defineCheck } from '../../harness/check.js';
import { bodyOf, call, control, createSession, freshSlug, requireSignup, SESSIONS } from './support.js';

export const signupSessionExpiry = defineCheck({
  id: 'signup.session-expiry',
  title: 'A signup session reads EXPIRED once the virtual clock passes its expiresAt, and refuses verification',
  area: 'signup',
  needs: ['writes', 'admin'],
  async run(ctx) {
    requireSignup(ctx);
    const admin = control(ctx);
    const session = await createSession(ctx, ctx.client, freshSlug('expiry'));
    if (!session) return;
    const { code } = await admin.verification(session.id);
    // A session belongs to no tenant yet: it follows the sandbox-wide clock, not the run's (harness/run-scope.ts).
    const clock = await ctx.admin!.sandboxClock();
    const seconds = Math.ceil((Date.parse(session.expiresAt) - Date.parse(clock.now)) / 1000) + 1;
    if (!ctx.expect(seconds > 0 && seconds < 366 * 86_400, 'signup-expires-at', `expiresAt ${session.expiresAt} is not a date within a year of the clock (${clock.now})`)) return;
    await ctx.admin!.advanceSandboxClock(seconds);
    const read = await call(ctx.client, 'GET', `${SESSIONS}/${session.id}`);
    ctx.expect(bodyOf(read).status === 'EXPIRED', 'signup-expired', `${seconds} s later, past expiresAt ${session.expiresAt}, the session reads ${JSON.stringify(bodyOf(read).status)}, not EXPIRED (spec 3.5)`, read);
    const verify = await call(ctx.client, 'POST', `${SESSIONS}/${session.id}/verify-email`, { code });
    ctx.expect(verify.response.status === 409, 'signup-expired', `verify-email with the right code on an expired session answered ${verify.response.status}, not 409`, verify);
  },
});
