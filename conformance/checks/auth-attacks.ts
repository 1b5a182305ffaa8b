// Attacks on the bearer (spec 5.1, 5.5, 7; decision 1): tokens forged from the structure of a genuine one
// and credentials used where they do not belong. auth.tampered-token (auth.ts) alters characters of a
// genuine token; these checks send what an attacker who holds one genuine token can build with a JWT
// library: an unsigned token, one signed with a key of their own, one naming another issuer; tenant B's
// genuine token aimed at tenant A; an integration token on a dashboard-only route. Expired tokens and
// revoked keys' tokens are auth.expired-token and auth.revoked-key (auth.ts); reading another tenant's job
// with its own bearer is isolation.jobs (isolation.ts).
//
// Every forged token is sent exactly as built (no re-exchange on 401) to a cheap read every deployment
// serves; each must be 401 INVALID_TOKEN with the error envelope (spec 7), and a 2xx fails with a rule of
// its own (the attack worked).
import { createHash, createHmac } from 'node:crypto';
import { base64url, decodeJwt, decodeProtectedHeader, exportJWK, SignJWT, UnsecuredJWT, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import { defineCheck, type CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import type { Exchange } from '../harness/types.js';
import { exchangeKey, expectServed } from './auth.js';
import { expectError } from '../harness/expect-error.js';
import { enqueue, receiptJobId } from './jobs-support.js';
import { feedRows, feedTenant, sessionPath, uploadFeed } from './trade/support.js';

/** A cheap tenant read every deployment serves (spec 4.1). */
const READ_PATH = '/api/jobs?limit=1';

interface Genuine {
  token: string;
  header: ProtectedHeaderParameters;
  claims: JWTPayload;
  segments: [header: string, payload: string, signature: string];
}

/** A genuine token of the primary key that opens READ_PATH, decoded; undefined (and failed) otherwise. */
async function genuineToken(ctx: CheckContext): Promise<Genuine | undefined> {
  const issued = await exchangeKey(ctx, ctx.client.apiKey, 'the genuine token');
  if (!issued) return undefined;
  const segments = issued.token.split('.');
  if (!ctx.expect(segments.length === 3, 'token-is-jwt', 'access_token is not a JWT (three dot-separated parts)', issued.exchange)) return undefined;
  let header: ProtectedHeaderParameters;
  let claims: JWTPayload;
  try {
    [header, claims] = [decodeProtectedHeader(issued.token), decodeJwt(issued.token)];
  } catch (error) {
    ctx.fail('token-is-jwt', `access_token is not a decodable JWT: ${(error as Error).message}`, issued.exchange);
    return undefined;
  }
  if (!(await expectServed(ctx, issued.token, 'the genuine token'))) return undefined;
  return { token: issued.token, header, claims, segments: segments as Genuine['segments'] };
}

/**
 * A 32-byte HS256 key that is not the server's: derived from the run's seed, so a replay sends the same
 * forged tokens.
 */
const attackerKey = (ctx: CheckContext, purpose: string) => new Uint8Array(createHash('sha256').update(`conformance ${purpose} ${ctx.seed}`).digest());

const encodeSegment = (value: object) => base64url.encode(JSON.stringify(value));

/** Sends `token` as the bearer of READ_PATH: a 2xx fails with `acceptedRule`, else 401 INVALID_TOKEN is due. */
async function expectRefused(ctx: CheckContext, token: string, what: string, acceptedRule: string): Promise<void> {
  const exchange = await ctx.client.call('GET', READ_PATH, { auth: { bearer: token } });
  if (exchange.response.status >= 200 && exchange.response.status < 300) {
    ctx.fail(acceptedRule, `${what} opened GET ${READ_PATH} (${exchange.response.status}); spec 5.1, 7 require 401 INVALID_TOKEN`, exchange);
    return;
  }
  expectError(ctx, exchange, 401, 'INVALID_TOKEN', what);
}

// Spec 5.1, 7: the bearer is a signed JWT. An unsigned token (`alg: none`, RFC 7519 section 6) carrying the
// genuine claims is invalid, whatever the case of `none` and whether or not a signature segment follows.
const algNoneToken = defineCheck({
  id: 'auth.alg-none-token',
  title: 'An unsigned (alg: none) token with genuine claims is refused with 401 INVALID_TOKEN',
  area: 'auth',
  needs: [],
  async run(ctx) {
    const genuine = await genuineToken(ctx);
    if (!genuine) return;
    const [, payload, signature] = genuine.segments;
    const variants: Array<[string, string]> = [
      ['an unsigned token (alg "none", empty signature) with the genuine claims', new UnsecuredJWT(genuine.claims).encode()],
      ['an unsigned token (alg "None", empty signature) with the genuine claims', `${encodeSegment({ ...genuine.header, alg: 'None' })}.${payload}.`],
      ['the genuine token with its header changed to alg "none" (signature kept)', `${encodeSegment({ ...genuine.header, alg: 'none' })}.${payload}.${signature}`],
    ];
    for (const [what, token] of variants) await expectRefused(ctx, token, what, 'unsigned-token-accepted');
  },
});

// Spec 5.1, 7: only the server's own key signs bearers. The genuine claims re-signed (HS256) with another
// key are invalid, including when the header carries that key (`jwk`, the embedded-key attack of RFC 7515
// section 4.1.3 trusted as the verification key) or names it (`kid`).
const foreignKeyToken = defineCheck({
  id: 'auth.foreign-key-token',
  title: 'A token with genuine claims signed with another key is refused with 401 INVALID_TOKEN',
  area: 'auth',
  needs: [],
  async run(ctx) {
    const genuine = await genuineToken(ctx);
    if (!genuine) return;
    const key = attackerKey(ctx, 'foreign key');
    const header = { ...genuine.header, alg: 'HS256' };
    const jwk = await exportJWK(key);
    const variants: Array<[string, ProtectedHeaderParameters]> = [
      ['the genuine claims re-signed with another HS256 key', header],
      ['the genuine claims re-signed with another HS256 key embedded in its jwk header', { ...header, jwk }],
      ['the genuine claims re-signed with another HS256 key named by its kid header', { ...header, kid: 'conformance-foreign-key' }],
    ];
    for (const [what, protectedHeader] of variants) {
      const token = await new SignJWT(genuine.claims).setProtectedHeader(protectedHeader as Parameters<SignJWT['setProtectedHeader']>[0]).sign(key);
      await expectRefused(ctx, token, what, 'foreign-key-token-accepted');
    }
  },
});

// Spec 5.1, 7: a bearer is the server's own token. A client cannot sign with the server's key, so a token
// naming another issuer and still signed by the server cannot be sent from outside; what a client can
// show is that another (or no) `iss` does not take the server down a path that skips verification (e.g.
// tokens of an identity provider taken as already verified). The genuine claims with `iss` changed, and
// with `iss` removed, signed with another key: both 401 INVALID_TOKEN.
const wrongIssuerToken = defineCheck({
  id: 'auth.wrong-issuer-token',
  title: 'A token naming another issuer (or none) is refused with 401 INVALID_TOKEN',
  area: 'auth',
  needs: [],
  async run(ctx) {
    const genuine = await genuineToken(ctx);
    if (!genuine) return;
    const key = attackerKey(ctx, 'issuer');
    const header = { ...genuine.header, alg: 'HS256' } as Parameters<SignJWT['setProtectedHeader']>[0];
    const other = typeof genuine.claims.iss === 'string' ? `${genuine.claims.iss}.conformance-other-issuer` : 'https://issuer.conformance.invalid';
    const { iss: _iss, ...withoutIssuer } = genuine.claims;
    const variants: Array<[string, JWTPayload]> = [[`the genuine claims with iss ${JSON.stringify(other)}, signed with another key`, { ...genuine.claims, iss: other }]];
    if (typeof genuine.claims.iss === 'string') variants.push(['the genuine claims without iss, signed with another key', withoutIssuer]);
    for (const [what, claims] of variants) {
      const token = await new SignJWT(claims).setProtectedHeader(header).sign(key);
      await expectRefused(ctx, token, what, 'wrong-issuer-token-accepted');
    }
  },
});

/** Claim names a JWT may give the tenant (the sandbox's is tenant_id). */
const TENANT_CLAIMS = ['tenant_id', 'tenantId', 'tid', 'org_id', 'orgId', 'organization_id'];

// Spec 5.1, 5.3, 7: the bearer alone names the tenant. Tenant B's genuine token sent with tenant A's id in
// the headers a server might read a tenant from (`x-org-id`, the legacy pair's header, and `x-tenant-id`)
// must still be tenant B's call: A's job is 404 NOT_FOUND by id (or the call 401 INVALID_TOKEN) and
// absent from the job list. Without those headers this is isolation.jobs, which it does not repeat.
// Tenant A is a fresh tenant with the control API; otherwise the primary tenant, its id read from the
// claims of its token, and the check is skipped when no claim names it.
const tokenBindsTenant = defineCheck({
  id: 'auth.token-binds-tenant',
  title: "Another tenant's genuine token does not open a tenant's job when headers name that tenant",
  area: 'auth',
  needs: ['writes', 'secondTenant'],
  async run(ctx) {
    const second = ctx.second!;
    let owner: ConformanceClient = ctx.client;
    let ownerId: string | undefined;
    if (ctx.admin) {
      const tenant = await ctx.admin.createTenant({ name: 'Conformance token binds tenant' });
      [owner, ownerId] = [ctx.client.withApiKey(tenant.integrationKey), tenant.tenantId];
    } else {
      const issued = await exchangeKey(ctx, ctx.client.apiKey, "the owner's token");
      if (!issued) return;
      let claims: JWTPayload = {};
      try {
        claims = decodeJwt(issued.token);
      } catch {
        // not a decodable JWT: no claim names the tenant
      }
      ownerId = TENANT_CLAIMS.map((name) => claims[name]).find((value): value is string => typeof value === 'string' && value !== '');
      if (!ownerId) ctx.skip(`the tenant id is not known: no claim of the token names it (${TENANT_CLAIMS.join(', ')})`);
    }

    const enqueued = await enqueue(owner, { skus: null });
    const jobId = receiptJobId(enqueued);
    if (!ctx.expect(enqueued.response.status === 202 && jobId !== undefined, 'enqueue', `POST /api/sima/batch answered ${enqueued.response.status}, not 202 with a jobId`, enqueued)) return;
    const own = await owner.call('GET', `/api/jobs/${jobId}`);
    if (!ctx.expect(own.response.status === 200, 'owner-reads-job', `the owning tenant's GET /api/jobs/${jobId} answered ${own.response.status}, not 200`, own)) return;

    const headers = { 'x-org-id': ownerId!, 'x-tenant-id': ownerId! };
    const what = `the other tenant's bearer with x-org-id and x-tenant-id naming the owner`;
    const byId = await second.call('GET', `/api/jobs/${jobId}`, { headers });
    if (byId.response.status === 200) ctx.fail('token-binds-tenant', `${what} read the owner's job ${jobId} (200); the bearer alone names the tenant (spec 5.1, 7: 404 NOT_FOUND)`, byId);
    else if (byId.response.status === 401) expectError(ctx, byId, 401, 'INVALID_TOKEN', `${what}: GET /api/jobs/${jobId}`);
    else expectError(ctx, byId, 404, 'NOT_FOUND', `${what}: GET /api/jobs/${jobId}`);

    const list = await second.call('GET', '/api/jobs?limit=100', { headers });
    const jobs = (list.response.body as { jobs?: unknown } | null)?.jobs;
    if (list.response.status === 200 && Array.isArray(jobs) && jobs.some((job) => (job as { id?: unknown } | null)?.id === jobId)) {
      ctx.fail('token-binds-tenant', `${what}: the job list contains the owner's job ${jobId}`, list);
    }
  },
});

/** True when `value` names `name`: the string itself or an array containing it (case-insensitive). */
const names = (value: unknown, name: string) =>
  (typeof value === 'string' && value.toLowerCase() === name) || (Array.isArray(value) && value.some((item) => typeof item === 'string' && item.toLowerCase() === name));

// Spec 5.5: dashboard-only routes are not callable with integration tokens; the sandbox's dashboard contract
// (issue acknowledgement of a trade feed session) answers 403 PRINCIPAL_DENIED with details.required and
// details.actual, as spec 5.4 does for the reverse case.
//
// A real deployment may not serve these routes at all, so a route is judged only when it answers something
// other than 404. The 404 is unambiguous because the session is the tenant's own and readable: it cannot
// mean "no such session", only that the route is not served to this caller (absent, or hidden from
// integration principals), and either way the integration token does not get in. A random session id
// would not do: a server that lets the token through would answer 404 for the missing session and pass.
// Every route answering 404: skipped. A 2xx: the token got in. Anything else: 403 PRINCIPAL_DENIED is due.
const dashboardRouteDenied = defineCheck({
  id: 'auth.dashboard-route-denied',
  title: 'A dashboard-only route refuses an integration token with 403 PRINCIPAL_DENIED (when it is served)',
  area: 'auth',
  needs: ['writes'],
  async run(ctx) {
    if (!ctx.contract.operation('uploadTradeFeed')) ctx.skip('the contract has no trade feed sessions, the resource of the dashboard-only routes');
    const { client } = await feedTenant(ctx, 'Conformance dashboard route');
    const uploaded = await uploadFeed(ctx, client, feedRows('direct'));
    if (!uploaded) return;
    const own = await client.call('GET', sessionPath(uploaded.sessionId));
    if (!ctx.expect(own.response.status === 200, 'owner-reads-session', `the tenant's GET ${sessionPath(uploaded.sessionId)} answered ${own.response.status}, not 200`, own)) return;

    const routes: Array<[path: string, json: unknown]> = [
      [`${sessionPath(uploaded.sessionId)}/issues/acknowledge`, {}],
      [`${sessionPath(uploaded.sessionId)}/issues/${encodeURIComponent('conformance:row:1')}/acknowledge`, undefined],
    ];
    let judged = 0;
    for (const [path, json] of routes) {
      const exchange: Exchange = await client.call('POST', path, json === undefined ? {} : { json });
      const { status } = exchange.response;
      if (status === 404) continue;
      judged++;
      const what = `POST ${path} with an integration token`;
      if (status >= 200 && status < 300) {
        ctx.fail('dashboard-route-open', `${what} answered ${status}: a dashboard-only route served an integration principal (spec 5.5)`, exchange);
        continue;
      }
      const envelope = expectError(ctx, exchange, 403, 'PRINCIPAL_DENIED', what);
      if (!envelope) continue;
      const details = envelope.details ?? {};
      ctx.expect(names(details.required, 'dashboard'), 'principal-denied-details', `${what}: details.required ${JSON.stringify(details.required)} does not name the dashboard principal type`, exchange);
      ctx.expect(details.actual !== undefined && details.actual !== null, 'principal-denied-details', `${what}: the 403 lacks details.actual`, exchange);
    }
    if (judged === 0) ctx.skip('the dashboard-only routes answer 404 for a session of the tenant: not served to integration principals');
  },
});

/** The product's names, as the spec's title and the project's short forms give them. */
const PRODUCT_NAMES = ['Trade Compliance and Freight Audit Service', 'trade-compliance-freight-audit', 'tfas', 'TFAS', 'tcfas', 'tcfa', 'svc', 'SVC'];
/** Secrets found in tutorials, defaults of frameworks and leaked configurations (jwt.io's own among them). */
const COMMON_SECRETS = ['', 'secret', 'Secret', 'SECRET', 'secretkey', 'secret-key', 'jwt-secret', 'jwt_secret', 'jwtsecret', 'your-256-bit-secret', 'your-secret-key', 'changeme', 'change-me', 'password', 'test', 'dev', 'development', 'sandbox', 'staging', 'key', 'default', '123456'];

/** `header.payload` signed with HMAC-SHA256 keyed by `secret` as UTF-8 bytes (node:crypto takes an empty key, a JWT library may not). */
const signHs256 = (header: object, claims: JWTPayload, secret: string) => {
  const input = `${encodeSegment(header)}.${encodeSegment(claims)}`;
  return `${input}.${createHmac('sha256', Buffer.from(secret, 'utf8')).update(input).digest('base64url')}`;
};

// Spec 5.1, 7 (issue 27 item 4): a server whose signing secret is one an attacker would guess first (empty,
// `secret`, the product's name, the key id, the tenant id, the issuer) lets anyone mint bearers. The genuine
// claims re-signed (HS256, the header the server uses, else a bare one) with each such secret must be refused
// like any other forged token. Candidates read from the genuine token (iss, sub, kid, the tenant claims) and
// the integration key itself (an HMAC keyed with the key the client sends) are tried beside the fixed list.
const weakSecretToken = defineCheck({
  id: 'auth.weak-secret-token',
  title: 'A token with genuine claims signed with a common weak secret (empty, `secret`, the product name, the key id, ...) is refused with 401 INVALID_TOKEN',
  area: 'auth',
  needs: [],
  async run(ctx) {
    const genuine = await genuineToken(ctx);
    if (!genuine) return;
    const fromToken = [genuine.claims.iss, genuine.claims.sub, genuine.header.kid, ...TENANT_CLAIMS.map((name) => genuine.claims[name])].filter((v): v is string => typeof v === 'string' && v !== '');
    const candidates = [...new Set([...COMMON_SECRETS, ...PRODUCT_NAMES, ...fromToken, ctx.client.apiKey])];
    const header = { ...genuine.header, alg: 'HS256' };
    for (const secret of candidates) {
      const shown = secret === ctx.client.apiKey ? 'the integration key itself' : JSON.stringify(secret);
      await expectRefused(ctx, signHs256(header, genuine.claims, secret), `the genuine claims re-signed (HS256) with the weak secret ${shown}`, 'weak-secret-token-accepted');
    }
  },
});

// Spec 2.1, 5.2, RFC 7519 section 4.1.4: a JWT "MUST NOT be accepted for processing" on or after its `exp`.
// auth.expired-token shows a token refused a second after expires_in; this one presents a fresh tenant's token
// 20 ms into exactly its `exp` second (within the latency of one request) on that tenant's
// virtual clock, where a server comparing `exp < now` still lets it in. Virtual time only moves forward, so
// whatever the latency, the request is served at or after `exp`: any 2xx is a failure. The tenant's clock
// is read before and after so the report says how close to `exp` the request came.
const tokenRefusedAtExp = defineCheck({
  id: 'auth.token-refused-at-exp',
  title: 'A token presented at exactly its exp second is refused with 401 INVALID_TOKEN (RFC 7519: on or after exp)',
  area: 'auth',
  needs: ['admin'],
  async run(ctx) {
    const admin = ctx.admin!;
    const tenant = await admin.createTenant({ name: 'Conformance token at exp' });
    const issued = await exchangeKey(ctx, tenant.integrationKey, 'the token to present at its exp');
    if (!issued) return;
    let exp: unknown;
    try {
      exp = decodeJwt(issued.token).exp;
    } catch {
      exp = undefined;
    }
    if (!ctx.expect(typeof exp === 'number' && Number.isInteger(exp), 'token-has-exp', `the access_token carries no integer exp claim (spec 5.1: a JWT; RFC 7519 section 4.1.4), so its expiry cannot be presented: ${JSON.stringify(exp)}`, issued.exchange)) return;
    const expMs = (exp as number) * 1000;
    const before = Date.parse((await admin.clock(tenant.tenantId)).now);
    if (!ctx.expect(before < expMs, 'token-not-born-expired', `the token's exp ${new Date(expMs).toISOString()} is not after the tenant's clock ${new Date(before).toISOString()} at issue`, issued.exchange)) return;
    // 20 ms into the exp second: a request's latency under a second still lands inside it.
    await admin.advanceClock((expMs + 20 - before) / 1000, tenant.tenantId);
    const reached = Date.parse((await admin.clock(tenant.tenantId)).now);
    const atExp = await ctx.client.call('GET', READ_PATH, { auth: { bearer: issued.token } });
    const what = `the token presented ${((reached - expMs) / 1000).toFixed(3)} s after its exp second began (exp ${exp}, expires_in ${issued.expiresIn})`;
    if (atExp.response.status >= 200 && atExp.response.status < 300) {
      ctx.fail('token-accepted-at-exp', `${what} opened GET ${READ_PATH} (${atExp.response.status}); RFC 7519 4.1.4 and spec 5.2 require 401 INVALID_TOKEN on or after exp`, atExp);
      return;
    }
    expectError(ctx, atExp, 401, 'INVALID_TOKEN', what);
  },
});

export const authAttackChecks = [algNoneToken, foreignKeyToken, wrongIssuerToken, weakSecretToken, tokenRefusedAtExp, tokenBindsTenant, dashboardRouteDenied];
