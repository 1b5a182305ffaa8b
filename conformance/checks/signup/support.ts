// Shared by the signup checks (spec 3.5, 4.7; archived contracts v1.1.0 and v1.2.0): which operations the
// certified contract has, request bodies, calls without a bearer (spec 5.6), and the sandbox control API's
// signup operations (the verification email's contents, the feature flag), which only the simulator has.
import type { CheckContext } from '../../harness/check.js';
import { ConformanceClient, type FailureSink } from '../../harness/client.js';
import { loadControlContract } from '../../harness/contract.js';
import type { Exchange } from '../../harness/types.js';
import { RUN_NONCE } from '../jobs-support.js';

export const SESSIONS = '/api/public/signup/sessions';

/** Skips the check unless the certified contract has signup (v1.1.0, v1.2.0; not v1.3.0, spec 9.1). */
export function requireSignup(ctx: CheckContext): void {
  if (!ctx.contract.operation('createSignupSession')) ctx.skip(`contract ${ctx.contract.version} has no signup operations (spec 4.7: archived versions only)`);
}

export const hasOperation = (ctx: CheckContext, operationId: string) => ctx.contract.operation(operationId) !== undefined;

let slugs = 0;
/** A slug of this run alone (the contract's pattern; never on a review list). */
export const freshSlug = (label: string) => `conf-${RUN_NONCE}-${label}-${++slugs}`.slice(0, 63).replace(/-+$/, '');

export function createBody(slug: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    companyName: 'Conformance Imports Ltd.',
    slug,
    modules: ['trade'],
    adminEmail: `admin@${slug}.example`,
    legalAcceptance: { termsVersion: '2026-09-01', privacyVersion: '2026-09-01', acceptedAt: '2026-11-02T14:04:51.000Z', ip: '203.0.113.42' },
    ...extra,
  };
}

/** A call without authentication (spec 5.6). */
export const call = (client: ConformanceClient, method: string, path: string, json?: unknown, unchecked = false) => client.call(method, path, { auth: 'none', json, unchecked });

export const codeOf = (exchange: Exchange): unknown => (exchange.response.body as { code?: unknown } | null)?.code;
export const bodyOf = (exchange: Exchange) => (exchange.response.body ?? {}) as Record<string, any>;

/** The simulator's control API for signup (sandbox-defined, contracts/sandbox-control.openapi.yaml). */
export class SignupControl {
  constructor(private readonly client: ConformanceClient, private readonly adminToken: string) {}

  static of(ctx: CheckContext, sink: FailureSink = (f) => ctx.fail(f.rule, f.message, f.exchange)): SignupControl | undefined {
    if (!ctx.admin || !ctx.options.adminToken) return undefined;
    const root = ctx.options.adminUrl ?? ctx.options.baseUrl.replace(/\/versions\/v\d+\.\d+\.\d+\/?$/, '');
    return new SignupControl(new ConformanceClient({ baseUrl: root, apiKey: '', contract: loadControlContract(), sink }), ctx.options.adminToken);
  }

  private async send<T>(method: string, path: string, json?: unknown): Promise<T> {
    const exchange = await this.client.call(method, path, { auth: { bearer: this.adminToken }, json });
    if (exchange.response.status >= 300) throw new Error(`control API ${method} ${path} answered ${exchange.response.status}: ${exchange.response.text.slice(0, 300)}`);
    return exchange.response.body as T;
  }

  verification(sessionId: string) {
    return this.send<{ code: string; magicLinkToken: string; failedAttempts: number; maxAttempts: number; locked: boolean }>('GET', `/_sim/signup/sessions/${sessionId}/verification`);
  }
  settings() {
    return this.send<{ enabled: boolean; retryAfterSeconds: number; provisioningSeconds: number }>('GET', '/_sim/signup/settings');
  }
  updateSettings(change: Record<string, unknown>) {
    return this.send<{ enabled: boolean; retryAfterSeconds: number; provisioningSeconds: number }>('PUT', '/_sim/signup/settings', change);
  }
}

/** The control API or a skip (checks that need the emailed code). */
export function control(ctx: CheckContext): SignupControl {
  const found = SignupControl.of(ctx);
  if (!found) return ctx.skip('needs the sandbox control API to read the verification code (the sandbox sends no email)');
  return found;
}

/** Creates a session and returns its id, or fails the check. */
export async function createSession(ctx: CheckContext, client: ConformanceClient, slug: string): Promise<{ id: string; expiresAt: string } | undefined> {
  const exchange = await call(client, 'POST', SESSIONS, createBody(slug));
  const body = bodyOf(exchange);
  if (!ctx.expect(exchange.response.status === 201 && typeof body.sessionId === 'string', 'signup-created', `POST ${SESSIONS} with every required field answered ${exchange.response.status}, not 201 (spec 4.7)`, exchange)) return undefined;
  ctx.expect(body.status === 'PENDING_EMAIL_VERIFICATION', 'signup-created', `a new session is ${JSON.stringify(body.status)}, not PENDING_EMAIL_VERIFICATION (spec 3.5)`, exchange);
  return { id: body.sessionId, expiresAt: body.expiresAt };
}
