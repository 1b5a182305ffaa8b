// The signup domain (spec 2.11, 3.5, 4.7; archived contracts v1.1.0 and v1.2.0): self-serve signup sessions
// that provision a real tenant and integration key, which then work on every served version. The control
// API reads the verification email's contents, decides reviews and switches signup off through it.
import type { KernelDeps } from '../../kernel/deps.js';
import { notFound } from '../../kernel/errors.js';
import type { AuthDomain } from '../auth/index.js';
import { defineDomain } from '../domain.js';
import type { TenantStore } from '../tenants/index.js';
import { MAX_VERIFICATION_ATTEMPTS, signupSessions } from './signup-sessions.js';
import { SIGNUP_DEFECTS, SIGNUP_RESPONSE_DEFECTS } from './signup.defects.js';
import { sessionBody } from './signup.response.js';
import { signupRoutes } from './signup.routes.js';
import { signupStore } from './signup.store.js';
import type { SignupDomain } from './signup.types.js';
import { signupSessionMachine } from './signup-session.machine.js';

export type * from './signup.types.js';

function createSignup(deps: KernelDeps, peers: { tenants: TenantStore; auth: AuthDomain }): SignupDomain {
  const store = signupStore(deps);
  const sessions = signupSessions(deps, store, peers);
  return {
    name: 'signup',
    handlers: signupRoutes(store, sessions),
    settings: () => store.settings(),
    updateSettings: (change) => store.updateSettings(change),
    async verification(sessionId) {
      const s = await sessions.load(sessionId).catch(() => undefined);
      if (!s) throw notFound('signup session');
      return {
        sessionId: s.id,
        status: s.status,
        adminEmail: s.adminEmail,
        code: s.code,
        magicLinkToken: s.magicLinkToken,
        verificationExpiresAt: s.verificationExpiresAt,
        failedAttempts: s.failedAttempts,
        maxAttempts: MAX_VERIFICATION_ATTEMPTS,
        locked: s.locked,
      };
    },
    review: async (sessionId, decision, reason) => sessionBody(await sessions.review(sessionId, decision, reason)),
  };
}

export const signupDomain = defineDomain({
  name: 'signup',
  needs: ['tenants', 'auth'],
  create: createSignup,
  defects: SIGNUP_DEFECTS,
  responseDefects: () => SIGNUP_RESPONSE_DEFECTS,
  testValues: [],
  lifecycles: { 'signup-session': signupSessionMachine },
  // Nothing: a signup session is the applicant's, kept by its own id (it names the tenant it provisioned).
  purgeTenant: async () => 0,
});
