// Authentication (spec 5, 7, 4.1; contracts/README.md decisions 1-2): the bearer is required and verified on
// every tenant call, the token exchange answers each kind of bad key with its own code, expired and revoked
// tokens stop working, and the per-route scope and principal rules of 5.4 are enforced.
import fc from 'fast-check';
import { defineCheck, type CheckContext } from '../harness/check.js';
import { expectError } from '../harness/expect-error.js';
import { replayOf } from '../harness/runner.js';
import type { Exchange } from '../harness/types.js';

const EXCHANGE_PATH = '/api/auth/token/integration';
/** A cheap tenant read every deployment serves (spec 4.1). */
const READ_PATH = '/api/jobs?limit=1';

/** An exchange of `apiKey` (spec 5.1) outside the client's token cache: the token and its lifetime. */
export async function exchangeKey(ctx: CheckContext, apiKey: string, what: string): Promise<{ token: string; expiresIn: number; exchange: Exchange } | undefined> {
  const exchange = await ctx.client.call('POST', EXCHANGE_PATH, { auth: { apiKey } });
  const body = exchange.response.body as { access_token?: unknown; expires_in?: unknown };
  if (exchange.response.status !== 200 || typeof body?.access_token !== 'string') {
    ctx.fail('token-exchange', `${what}: the token exchange answered ${exchange.response.status}, not 200 with an access_token`, exchange);
    return undefined;
  }
  return { token: body.access_token, expiresIn: typeof body.expires_in === 'number' ? body.expires_in : NaN, exchange };
}

/** A read with exactly this bearer (no re-exchange on 401), expected to be served. */
export async function expectServed(ctx: CheckContext, token: string, what: string): Promise<boolean> {
  const opened = await ctx.client.call('GET', READ_PATH, { auth: { bearer: token } });
  return ctx.expect(opened.response.status === 200, 'bearer-opens-tenant-endpoints', `${what}: GET ${READ_PATH} answered ${opened.response.status}, not 200`, opened);
}

// Decision 1: a call without any bearer is a call with an invalid one.
const missingBearer = defineCheck({
  id: 'auth.missing-bearer',
  title: 'A tenant call without a bearer token is refused with 401 INVALID_TOKEN',
  area: 'auth',
  needs: [],
  async run(ctx) {
    const exchange = await ctx.client.call('GET', '/api/jobs', { auth: 'none' });
    expectError(ctx, exchange, 401, 'INVALID_TOKEN', 'GET /api/jobs without Authorization');
  },
});

// Spec 5.1, 7: anything but `Bearer <valid JWT>` is an invalid bearer.
const malformedBearer = defineCheck({
  id: 'auth.malformed-bearer',
  title: 'A malformed Authorization header is refused with 401 INVALID_TOKEN',
  area: 'auth',
  needs: [],
  async run(ctx) {
    for (const authorization of ['Bearer not-a-jwt', 'Basic xyz', 'Bearer']) {
      const exchange = await ctx.client.call('GET', '/api/jobs', { auth: 'none', headers: { authorization } });
      expectError(ctx, exchange, 401, 'INVALID_TOKEN', `GET /api/jobs with "Authorization: ${authorization}"`);
    }
    // Spec 4: "Authorization: Bearer <ACCESS_TOKEN>": a genuine token without its Bearer scheme is no bearer.
    const bare = await ctx.client.call('GET', '/api/jobs', { auth: 'none', headers: { authorization: await ctx.client.token() } });
    expectError(ctx, bare, 401, 'INVALID_TOKEN', 'GET /api/jobs with "Authorization: <a valid token without Bearer>"');
  },
});

/** Replaces the character at `index` of a base64url string with another base64url character. */
function flipChar(segment: string, index: number): string {
  const replacement = segment[index] === 'A' ? 'B' : 'A';
  return segment.slice(0, index) + replacement + segment.slice(index + 1);
}

/**
 * The payload with a claim changed and re-encoded, the JSON still valid: a server that decodes without
 * verifying the signature would accept it. `exp` is pushed later (a token-lifetime forgery) when present.
 */
function forgedPayload(payload: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof claims !== 'object' || claims === null) return undefined;
    const forged = typeof claims.exp === 'number' ? { ...claims, exp: claims.exp + 60 } : { ...claims, conformance_forged: true };
    return Buffer.from(JSON.stringify(forged), 'utf8').toString('base64url');
  } catch {
    return undefined;
  }
}

// Spec 5.1, 7: the bearer is a signed JWT; a token whose payload or signature was altered is invalid.
const tamperedToken = defineCheck({
  id: 'auth.tampered-token',
  title: 'A token with an altered payload or signature is refused with 401 INVALID_TOKEN',
  area: 'auth',
  needs: [],
  async run(ctx) {
    const issued = await exchangeKey(ctx, ctx.client.apiKey, 'the genuine token');
    if (!issued) return;
    const parts = issued.token.split('.');
    if (!ctx.expect(parts.length === 3, 'token-is-jwt', 'access_token is not a JWT (three dot-separated parts)', issued.exchange)) return;
    if (!(await expectServed(ctx, issued.token, 'the genuine token'))) return;
    const [header, payload, signature] = parts;
    const variants: Array<[string, string]> = [
      ['one character of the payload segment changed', [header, flipChar(payload, Math.floor(payload.length / 2)), signature].join('.')],
      ['one character of the signature changed', [header, payload, flipChar(signature, Math.floor(signature.length / 2))].join('.')],
    ];
    const forged = forgedPayload(payload);
    if (forged) variants.push(['a claim of the payload changed (valid JSON, original signature)', [header, forged, signature].join('.')]);
    for (const [what, token] of variants) {
      const exchange = await ctx.client.call('GET', '/api/jobs', { auth: { bearer: token } });
      expectError(ctx, exchange, 401, 'INVALID_TOKEN', `a token with ${what}`);
    }
  },
});

// Spec 7: an unknown integration key is 401 INVALID_API_KEY at the token exchange.
const unknownKey = defineCheck({
  id: 'auth.unknown-key',
  title: 'The token exchange refuses an unknown integration key with 401 INVALID_API_KEY',
  area: 'auth',
  needs: [],
  async run(ctx) {
    const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });
    const keys = fc.sample(hex, { seed: ctx.seed, numRuns: 3 }).map((suffix) => `conformance_unknown_${suffix}`);
    for (const key of keys) {
      const exchange = await ctx.client.call('POST', EXCHANGE_PATH, { auth: { apiKey: key } });
      const extra = { seed: ctx.seed, counterexample: JSON.stringify(key), replay: replayOf(ctx, 'auth.unknown-key') };
      if (!expectError(ctx, exchange, 401, 'INVALID_API_KEY', `the exchange of the random key ${key}`, extra)) return;
    }
  },
});

// Spec 4.1, 7: the token exchange without x-api-key is 400 MISSING_API_KEY.
const missingApiKey = defineCheck({
  id: 'auth.missing-api-key',
  title: 'The token exchange without x-api-key is refused with 400 MISSING_API_KEY',
  area: 'auth',
  needs: [],
  async run(ctx) {
    const exchange = await ctx.client.call('POST', EXCHANGE_PATH, { auth: 'none' });
    expectError(ctx, exchange, 400, 'MISSING_API_KEY', 'the token exchange without x-api-key');
  },
});

// Spec 2.1, 5.2, 7: `expires_in` is the bearer's lifetime: still served shortly before it has passed (a
// token dying before its announced lifetime breaks every client that refreshes on expires_in), refused
// with INVALID_TOKEN after; re-exchanging the key works.
const expiredToken = defineCheck({
  id: 'auth.expired-token',
  title: 'A token is served until its expires_in, refused with 401 INVALID_TOKEN after, and a fresh exchange works',
  area: 'auth',
  needs: ['admin'],
  async run(ctx) {
    const issued = await exchangeKey(ctx, ctx.client.apiKey, 'the token to expire');
    if (!issued) return;
    if (!ctx.expect(Number.isInteger(issued.expiresIn) && issued.expiresIn > 0, 'token-lifetime', `expires_in ${issued.expiresIn} is not a positive integer`, issued.exchange)) return;
    if (!(await expectServed(ctx, issued.token, 'the token before expiry'))) return;
    // The margin leaves room for the time the requests themselves take; at most a minute of the lifetime.
    const margin = Math.min(60, Math.floor(issued.expiresIn / 2));
    await ctx.admin!.advanceClock(issued.expiresIn - margin);
    const late = await ctx.client.call('GET', READ_PATH, { auth: { bearer: issued.token } });
    const lateWhat = `GET ${READ_PATH} with the token ${issued.expiresIn - margin} s after issue (expires_in ${issued.expiresIn})`;
    if (!ctx.expect(late.response.status === 200, 'token-valid-until-expires-in', `${lateWhat} answered ${late.response.status}, not 200 (spec 2.1, 5.2)`, late)) return;
    await ctx.admin!.advanceClock(margin + 1);
    const expired = await ctx.client.call('GET', '/api/jobs', { auth: { bearer: issued.token } });
    expectError(ctx, expired, 401, 'INVALID_TOKEN', `the token ${issued.expiresIn + 1} s after issue`);
    const fresh = await exchangeKey(ctx, ctx.client.apiKey, 'the re-exchange after expiry');
    if (fresh) await expectServed(ctx, fresh.token, 'the re-exchanged token');
  },
});

// Decision 2, spec 5.2, 7: revoking a key stops its tokens at once (INVALID_TOKEN) and its exchange
// (REVOKED_API_KEY).
const revokedKey = defineCheck({
  id: 'auth.revoked-key',
  title: 'Revoking a key stops its tokens at once and its exchange with 401 REVOKED_API_KEY',
  area: 'auth',
  needs: ['admin'],
  async run(ctx) {
    const tenant = await ctx.admin!.createTenant({ name: 'Conformance revoked key' });
    const issued = await exchangeKey(ctx, tenant.integrationKey, 'the key to revoke');
    if (!issued) return;
    if (!(await expectServed(ctx, issued.token, 'the token before revocation'))) return;
    await ctx.admin!.revokeKey(tenant.integrationKeyId);
    const after = await ctx.client.call('GET', '/api/jobs', { auth: { bearer: issued.token } });
    expectError(ctx, after, 401, 'INVALID_TOKEN', 'a token of the key after its revocation');
    const reExchange = await ctx.client.call('POST', EXCHANGE_PATH, { auth: { apiKey: tenant.integrationKey } });
    expectError(ctx, reExchange, 401, 'REVOKED_API_KEY', 'the exchange of the revoked key');
  },
});

// Spec 7: exchanging an expired integration key is 401 EXPIRED_API_KEY. The key's expiry is set through the
// control API (the key lifecycle is out of the public surface, spec 1) and reached on the tenant's clock.
const expiredKey = defineCheck({
  id: 'auth.expired-key',
  title: 'The token exchange refuses an expired integration key with 401 EXPIRED_API_KEY',
  area: 'auth',
  needs: ['admin'],
  async run(ctx) {
    const tenant = await ctx.admin!.createTenant({ name: 'Conformance expired key' });
    const lifetimeSeconds = 600;
    const { now } = await ctx.admin!.clock(tenant.tenantId);
    const expiring = await ctx.admin!.createIntegrationKey(tenant.tenantId, { expiresAt: new Date(Date.parse(now) + lifetimeSeconds * 1000).toISOString() });
    if (!(await exchangeKey(ctx, expiring.integrationKey, 'the key before its expiry'))) return;
    await ctx.admin!.advanceClock(lifetimeSeconds + 1, tenant.tenantId);
    const expired = await ctx.client.call('POST', EXCHANGE_PATH, { auth: { apiKey: expiring.integrationKey } });
    expectError(ctx, expired, 401, 'EXPIRED_API_KEY', `the exchange of a key ${lifetimeSeconds + 1} s after its expiresAt`);
    // The same tenant's key without expiry still exchanges: the refusal is about the key's expiry.
    await exchangeKey(ctx, tenant.integrationKey, "the same tenant's key without expiry");
  },
});

/** True when `value` names `name`: the string itself or an array containing it (case-insensitive). */
const names = (value: unknown, name: string) =>
  (typeof value === 'string' && value.toLowerCase() === name) || (Array.isArray(value) && value.some((item) => typeof item === 'string' && item.toLowerCase() === name));

// Spec 5.4: billing setup requires principal type integration, else 403 PRINCIPAL_DENIED with
// details.required and details.actual.
const principalDenied = defineCheck({
  id: 'auth.principal-denied',
  title: 'Billing setup refuses a dashboard principal with 403 PRINCIPAL_DENIED',
  area: 'auth',
  needs: ['admin', 'writes'],
  async run(ctx) {
    const tenant = await ctx.admin!.createTenant({ name: 'Conformance principal' });
    const { access_token } = await ctx.admin!.dashboardToken(tenant.tenantId);
    const denied = await ctx.client.call('POST', '/api/public/billing/setup-session', { auth: { bearer: access_token } });
    const envelope = expectError(ctx, denied, 403, 'PRINCIPAL_DENIED', 'billing setup with a dashboard token');
    if (envelope) {
      const details = envelope.details ?? {};
      ctx.expect(details.required !== undefined && details.required !== null, 'principal-denied-details', 'the 403 lacks details.required (spec 5.4)', denied);
      ctx.expect(details.actual !== undefined && details.actual !== null, 'principal-denied-details', 'the 403 lacks details.actual (spec 5.4)', denied);
      if (details.required !== undefined && details.required !== null) {
        ctx.expect(names(details.required, 'integration'), 'principal-denied-details', `details.required ${JSON.stringify(details.required)} does not name the integration principal type (spec 5.4)`, denied);
      }
    }
    // The same tenant's integration principal is served: the refusal is about the principal type.
    const served = await ctx.client.withApiKey(tenant.integrationKey).call('POST', '/api/public/billing/setup-session');
    ctx.expect(served.response.status === 201, 'integration-principal-served', `billing setup with the same tenant's integration token answered ${served.response.status}, not 201`, served);
  },
});

/** A small agreement file; accepted types of the carrier-agreement upload include .csv (decision 7). */
function agreementForm(name: string): FormData {
  const form = new FormData();
  form.append('file', new File([`carrier,service,discount\nconformance,${name},0.10\n`], `${name}.csv`, { type: 'text/csv' }));
  return form;
}

// Spec 5.4: the carrier-agreement upload requires scope ship:upload, else 403 SCOPE_DENIED with
// details.required and details.provided. The scope names given to the control API are the sandbox's.
const scopeDenied = defineCheck({
  id: 'auth.scope-denied',
  title: 'The carrier-agreement upload refuses a key without ship:upload with 403 SCOPE_DENIED',
  area: 'auth',
  needs: ['admin', 'writes'],
  async run(ctx) {
    const without = await ctx.admin!.createTenant({ name: 'Conformance scope without ship:upload', scopes: ['sima:write'] });
    const denied = await ctx.client.withApiKey(without.integrationKey).call('POST', '/api/carrier/agreements/upload', { form: agreementForm('conformance-agreement-denied') });
    const envelope = expectError(ctx, denied, 403, 'SCOPE_DENIED', 'the carrier-agreement upload with a key lacking ship:upload');
    if (envelope) {
      const details = envelope.details ?? {};
      ctx.expect(names(details.required, 'ship:upload'), 'scope-denied-details', `details.required ${JSON.stringify(details.required)} does not name ship:upload (spec 5.4)`, denied);
      ctx.expect(Array.isArray(details.provided), 'scope-denied-details', `details.provided ${JSON.stringify(details.provided)} is not an array (spec 5.4)`, denied);
    }
    const withScope = await ctx.admin!.createTenant({ name: 'Conformance scope with ship:upload', scopes: ['ship:upload'] });
    const allowed = await ctx.client.withApiKey(withScope.integrationKey).call('POST', '/api/carrier/agreements/upload', { form: agreementForm('conformance-agreement-allowed') });
    ctx.expect(allowed.response.status !== 403, 'scope-granted', `the carrier-agreement upload with a key holding ship:upload answered 403 ${(allowed.response.body as { code?: string })?.code ?? ''}`, allowed);
  },
});

/** An invoice file for the ship upload (spec 4.3); its content is not what the allowlist check is about. */
function shipForm(name: string, adapterId: string): FormData {
  const form = new FormData();
  form.append('file', new File([`Carrier,Express or Ground Tracking ID,Net Charge Amount\nFEDEX,${name},1.00\n`], `${name}.csv`, { type: 'text/csv' }));
  form.append('adapter_id', adapterId);
  return form;
}

// Spec 5.4: "An integration key may carry an adapter allowlist checked on `adapter_id` for ship upload"; spec
// 4.3: the ship upload answers 403 ADAPTER_NOT_ALLOWED (spec 7: "adapter not in the key's allowlist"). The
// allowlist is given through the control API (the spec shows no public way), so: simulator profile.
const adapterNotAllowed = defineCheck({
  id: 'auth.adapter-not-allowed',
  title: "The ship upload refuses an adapter_id outside the key's allowlist with 403 ADAPTER_NOT_ALLOWED",
  area: 'auth',
  needs: ['admin', 'writes'],
  async run(ctx) {
    const unique = `conformance-adapter-${ctx.seed}-${Date.now().toString(36)}`;
    const tenant = await ctx.admin!.createTenant({ name: 'Conformance adapter allowlist', allowedAdapters: ['conformance-allowed-adapter'] });
    const client = ctx.client.withApiKey(tenant.integrationKey);
    const denied = await client.call('POST', '/api/ship/upload', { form: shipForm(`${unique}-denied`, 'conformance-other-adapter') });
    expectError(ctx, denied, 403, 'ADAPTER_NOT_ALLOWED', 'a ship upload naming an adapter outside the key\'s allowlist');
    const allowed = await client.call('POST', '/api/ship/upload', { form: shipForm(`${unique}-allowed`, 'conformance-allowed-adapter') });
    ctx.expect(allowed.response.status !== 403, 'adapter-allowed', `a ship upload naming the adapter the key allows answered 403 ${(allowed.response.body as { code?: string })?.code ?? ''}`, allowed);
    // Spec 4.3: adapter_id is "checked against the key's adapter allowlist", whatever the key's default
    // adapter (spec 2.1 default_adapter) is: a key whose default is allowed still refuses another adapter_id.
    const withDefault = await ctx.admin!.createTenant({ name: 'Conformance adapter allowlist with a default', allowedAdapters: ['conformance-allowed-adapter'], defaultAdapter: 'conformance-allowed-adapter' });
    const refused = await ctx.client.withApiKey(withDefault.integrationKey).call('POST', '/api/ship/upload', { form: shipForm(`${unique}-default-denied`, 'conformance-other-adapter') });
    expectError(ctx, refused, 403, 'ADAPTER_NOT_ALLOWED', "a ship upload naming an adapter outside the allowlist of a key whose default adapter is allowed");
    // Spec 2.1: the token response's default_adapter is "a string or null", also for a key carrying an allowlist.
    const issued = await exchangeKey(ctx, withDefault.integrationKey, 'the key with an adapter allowlist and a default adapter');
    const named = (issued?.exchange.response.body as { default_adapter?: unknown } | undefined)?.default_adapter;
    if (issued) ctx.expect(typeof named === 'string' || named === null, 'token-default-adapter', `the token exchange of a key with an adapter allowlist answered default_adapter ${JSON.stringify(named)}, not a string or null (spec 2.1)`, issued.exchange);
  },
});

export const authChecks = [missingBearer, malformedBearer, tamperedToken, unknownKey, missingApiKey, expiredToken, expiredKey, revokedKey, principalDenied, scopeDenied, adapterNotAllowed];
