// signup.lifecycle-model: signup sessions move only along the lifecycle of spec 3.5 / 4.7 (signup.model.ts),
// as a fast-check model (simulator profile: the emailed code comes from the control API, the clock moves).
// Every property failure carries its seed, the shrunk command sequence and the command that replays it.
import fc from 'fast-check';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { AdminClient } from '../../harness/admin.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { ModelViolation, modelExpect, runModel } from '../../models/runner.js';
import { canFollow, EXPIRABLE, isSignupStatus, type SignupStatus } from '../../models/signup.model.js';
import { bodyOf, call, control, createBody, freshSlug, hasOperation, requireSignup, SESSIONS, type SignupControl } from './support.js';

interface KnownSession {
  id: string;
  status: SignupStatus;
  expiresAt: string;
  /** A verify call was answered 409/429 while the session awaited verification (locked or code expired). */
  refused: boolean;
  /** The clock passed expiresAt while the session could still expire: the next read must say EXPIRED. */
  mustExpire: boolean;
  provisionKey: string;
}
interface SignupModel {
  sessions: KnownSession[];
  magicLink: boolean;
}
interface SignupReal {
  client: ConformanceClient;
  admin: AdminClient;
  control: SignupControl;
}

const pick = (model: SignupModel, n: number) => model.sessions[n % model.sessions.length];

/** Judges a status the server reports for a session, and learns it. */
function observe(session: KnownSession, status: unknown, exchange: Exchange, where: string) {
  modelExpect(isSignupStatus(status), 'signup-status-known', `${where}: status ${JSON.stringify(status)} is not a signup status (spec 3.5)`, exchange);
  if (session.mustExpire) modelExpect(status === 'EXPIRED', 'signup-expired', `${where}: the clock passed expiresAt ${session.expiresAt} while the session was ${session.status}, but it reads ${status}, not EXPIRED (spec 3.5)`, exchange);
  modelExpect(canFollow(session.status, status), 'signup-transition', `${where}: moved from ${session.status} to ${status}, which no transition of spec 3.5/4.7 allows`, exchange);
  session.status = status;
  session.mustExpire = false;
}

class Create implements fc.AsyncCommand<SignupModel, SignupReal> {
  check = () => true;
  async run(model: SignupModel, real: SignupReal) {
    const slug = freshSlug('model');
    const exchange = await call(real.client, 'POST', SESSIONS, createBody(slug));
    const body = bodyOf(exchange);
    modelExpect(exchange.response.status === 201, 'signup-created', `create answered ${exchange.response.status}, not 201`, exchange);
    const session: KnownSession = { id: body.sessionId, status: 'PENDING_EMAIL_VERIFICATION', expiresAt: body.expiresAt, refused: false, mustExpire: false, provisionKey: `conf-${slug}` };
    modelExpect(body.status === 'PENDING_EMAIL_VERIFICATION', 'signup-created', `a new session is ${JSON.stringify(body.status)} (spec 3.5: PENDING_EMAIL_VERIFICATION)`, exchange);
    model.sessions.push(session);
  }
  toString = () => 'Create';
}

class Verify implements fc.AsyncCommand<SignupModel, SignupReal> {
  constructor(readonly n: number, readonly how: 'code' | 'wrong-code' | 'magic-link') {}
  check = (model: Readonly<SignupModel>) => model.sessions.length > 0 && (this.how !== 'magic-link' || model.magicLink);
  async run(model: SignupModel, real: SignupReal) {
    const session = pick(model, this.n);
    const shown = await real.control.verification(session.id);
    const now = (await real.admin.sandboxClock()).now;
    const wrongCode = String((Number(shown.code) + 1) % 1_000_000).padStart(6, '0');
    const [suffix, body] = this.how === 'magic-link' ? ['verify-magic-link', { token: shown.magicLinkToken }] : ['verify-email', { code: this.how === 'code' ? shown.code : wrongCode }];
    const exchange = await call(real.client, 'POST', `${SESSIONS}/${session.id}/${suffix}`, body);
    const status = exchange.response.status;
    const where = `${this} on a session known as ${session.status}`;
    if (this.how === 'wrong-code') {
      modelExpect(status !== 200, 'signup-wrong-code-refused', `${where}: a wrong code answered 200`, exchange);
    } else if (session.status === 'PENDING_EMAIL_VERIFICATION' && !session.refused && !session.mustExpire && now <= session.expiresAt && Date.parse(now) <= Date.parse((shown as { verificationExpiresAt?: string }).verificationExpiresAt ?? now)) {
      modelExpect(status === 200, 'signup-verify', `${where}: the emailed ${this.how} answered ${status}, not 200 (spec 3.5)`, exchange);
    } else if (!EXPIRABLE.includes(session.status) || session.mustExpire || session.status === 'EMAIL_VERIFIED') {
      modelExpect(status === 409, 'signup-verify-state', `${where}: verify answered ${status}, not 409 ACTION_NOT_ALLOWED (the session no longer awaits verification)`, exchange);
    }
    if (status === 200) observe(session, bodyOf(exchange).status, exchange, where);
    else if ((status === 409 || status === 429) && session.status === 'PENDING_EMAIL_VERIFICATION') session.refused = true;
    else modelExpect(status === 400 || status === 409 || status === 429, 'signup-verify-refusal', `${where}: answered ${status}`, exchange);
  }
  toString = () => `Verify(#${this.n}, ${this.how})`;
}

class Provision implements fc.AsyncCommand<SignupModel, SignupReal> {
  constructor(readonly n: number) {}
  check = (model: Readonly<SignupModel>) => model.sessions.length > 0;
  async run(model: SignupModel, real: SignupReal) {
    const session = pick(model, this.n);
    const exchange = await call(real.client, 'POST', `${SESSIONS}/${session.id}/provision`, { idempotencyKey: session.provisionKey });
    const status = exchange.response.status;
    const where = `${this} on a session known as ${session.status}`;
    if (session.status === 'PENDING_EMAIL_VERIFICATION' || session.status === 'EXPIRED' || session.status === 'FAILED' || session.mustExpire) {
      modelExpect(status === 409, 'signup-provision-unverified', `${where}: provision answered ${status}, not 409 (only a verified session is provisioned, spec 4.7)`, exchange);
      return;
    }
    modelExpect(status === 201 || status === 202, 'signup-provision', `${where}: provision answered ${status}, not 201 or 202`, exchange);
    const body = bodyOf(exchange);
    modelExpect((status === 201) === (body.status === 'PROVISIONED'), 'signup-provision', `${where}: ${status} with status ${body.status} (spec 4.7: 201 completed, 202 in progress or review)`, exchange);
    observe(session, body.status, exchange, where);
  }
  toString = () => `Provision(#${this.n})`;
}

class Read implements fc.AsyncCommand<SignupModel, SignupReal> {
  constructor(readonly n: number) {}
  check = (model: Readonly<SignupModel>) => model.sessions.length > 0;
  async run(model: SignupModel, real: SignupReal) {
    const session = pick(model, this.n);
    const exchange = await call(real.client, 'GET', `${SESSIONS}/${session.id}`);
    modelExpect(exchange.response.status === 200, 'signup-readable', `GET of session #${this.n % model.sessions.length} answered ${exchange.response.status}`, exchange);
    observe(session, bodyOf(exchange).status, exchange, `${this}`);
  }
  toString = () => `Read(#${this.n})`;
}

class AdvanceClock implements fc.AsyncCommand<SignupModel, SignupReal> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(model: SignupModel, real: SignupReal) {
    // Signup sessions belong to no tenant: the sandbox-wide clock, not the run's (harness/run-scope.ts).
    const { now } = await real.admin.advanceSandboxClock(this.seconds);
    for (const session of model.sessions) if (EXPIRABLE.includes(session.status) && now > session.expiresAt) session.mustExpire = true;
  }
  toString = () => `AdvanceClock(${this.seconds} s)`;
}

export const signupLifecycleModel = defineCheck({
  id: 'signup.lifecycle-model',
  title: 'Signup sessions move only along the lifecycle of spec 3.5 and 4.7 under any sequence of calls',
  area: 'signup',
  needs: ['writes', 'admin'],
  async run(ctx: CheckContext) {
    requireSignup(ctx);
    const signupControl = control(ctx);
    const magicLink = hasOperation(ctx, 'verifySignupMagicLink');
    const n = fc.nat(15);
    await runModel<SignupModel, SignupReal>({
      ctx,
      checkId: 'signup.lifecycle-model',
      name: 'signup',
      commands: [
        fc.constant(null).map(() => new Create()),
        fc.constant(null).map(() => new Create()),
        n.map((i) => new Verify(i, 'code')),
        n.map((i) => new Verify(i, 'wrong-code')),
        n.map((i) => new Verify(i, 'magic-link')),
        n.map((i) => new Provision(i)),
        n.map((i) => new Provision(i)),
        n.map((i) => new Read(i)),
        fc.constantFrom(60, 1200, 8 * 86_400).map((s) => new AdvanceClock(s)),
      ],
      async initial(tools) {
        if (!tools.admin) throw new ModelViolation('signup-setup', 'the model needs the control API');
        return { model: { sessions: [], magicLink }, real: { client: tools.client, admin: tools.admin, control: signupControl } };
      },
      sequences: ctx.runs,
      maxCommands: 12,
      timeLimitMs: 45_000,
    });
  },
});
