// The signup handlers (spec 4.7; archived contracts v1.1.0 and v1.2.0), keyed by operationId. No bearer
// (spec 5.6: PUBLIC_OPERATIONS). verify-magic-link and resend-verification exist in v1.2.0 only: v1.1.0 has
// no route for them (404). Every operation answers 503 FEATURE_DISABLED while the sandbox's signup flag is
// off (control API: PUT /_sim/signup/settings), with Retry-After and details.retryAfterSeconds (spec 7).
import { ApiError } from '../../kernel/errors.js';
import type { Handler, HandlerTable } from '../../kernel/http/types.js';
import type { SignupSessions } from './signup-sessions.js';
import type { SignupStore } from './signup.store.js';
import { createdBody, provisionBody, sessionBody, verifiedBody } from './signup.response.js';

type SignupOperation = 'createSignupSession' | 'getSignupSession' | 'verifySignupEmail' | 'verifySignupMagicLink' | 'resendSignupVerification' | 'provisionSignupSession';

export function signupRoutes(store: SignupStore, sessions: SignupSessions) {
  /** The feature flag first: while signup is off nothing else is judged. */
  const gated = <Op extends SignupOperation>(handler: Handler<Op>): Handler<Op> =>
    async (request) => {
      const { enabled, retryAfterSeconds } = await store.settings();
      if (!enabled) throw new ApiError('FEATURE_DISABLED', 'self-serve signup is disabled in this sandbox', { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
      return handler(request);
    };

  return {
    createSignupSession: gated<'createSignupSession'>(async ({ body }) => ({ status: 201, body: createdBody(await sessions.create(body)) })),
    getSignupSession: gated<'getSignupSession'>(async ({ params }) => ({ status: 200, body: sessionBody(await sessions.load(params.sessionId)) })),
    verifySignupEmail: gated<'verifySignupEmail'>(async ({ params, body }) => ({ status: 200, body: verifiedBody(await sessions.verifyEmail(params.sessionId, body.code)) })),
    verifySignupMagicLink: gated<'verifySignupMagicLink'>(async ({ params, body }) => ({ status: 200, body: verifiedBody(await sessions.verifyMagicLink(params.sessionId, body.token)) })),
    resendSignupVerification: gated<'resendSignupVerification'>(async ({ params }) => ({ status: 200, body: createdBody(await sessions.resend(params.sessionId)) })),
    provisionSignupSession: gated<'provisionSignupSession'>(async ({ params, body }) => {
      const outcome = await sessions.provision(params.sessionId, body);
      return { status: outcome.status, body: provisionBody(outcome.session, outcome.secret) };
    }),
  } satisfies HandlerTable;
}
