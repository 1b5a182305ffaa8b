// Test support: a tiny stand-in deployment over node:http, to prove checks right on behaviour the simulator
// has not built yet. It serves the token exchange (spec 5.1) and the part of the sandbox control API the
// checks use (tenants with scopes, settings, the clock); the test file gives the routes under test, written
// to the spec, and switches one rule off to see the check meant for it fail. Tests only.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TargetOptions } from '../harness/types.js';
import { TEST_SEED } from './simulator.js';

interface StubTenant {
  tenantId: string;
  keyId: string;
  apiKey: string;
  scopes: string[];
  settings: StubSettings;
}

export interface StubSettings {
  rateLimits: Record<'read' | 'write' | 'upload', { limit: number; windowMs: number }>;
  queueCaps: { total: number; upload: number; sima: number; preview: number };
  carrierPolicies: Record<string, unknown>;
  quoteCorridors: Array<{ originCountry: string; destinationCountry: string; enabled?: boolean }>;
  featureFlags: Record<string, boolean>;
}

export interface StubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The tenant of the bearer token, when it is one the stub issued. */
  tenant?: StubTenant;
  /** Tenants by integration key (routes that take other credentials, e.g. the legacy pair). */
  tenantsByKey: Map<string, StubTenant>;
}

export interface StubResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Answers a request under test, or undefined to fall through to 404. */
export type StubRoute = (request: StubRequest) => Promise<StubResponse | undefined> | StubResponse | undefined;

/** The error envelope (spec 2.9, 7). */
export const stubError = (status: number, code: string, message: string, details?: Record<string, unknown>): StubResponse => ({
  status,
  body: { code, message, ...(details ? { details } : {}) },
});

export interface StubTarget {
  url: string;
  apiKey: string;
  adminToken: string;
  primary: StubTenant;
  /** Simulator profile, v1.3.0, seed TEST_SEED, 15 runs, at the stub's root; `extra` wins. */
  options(extra?: Partial<TargetOptions>): TargetOptions;
  close(): Promise<void>;
}

const ALL_SCOPES = ['jobs:read', 'sima:write', 'trade:write', 'ship:write', 'ship:upload', 'landed-cost:write', 'billing:write'];

const defaultSettings = (): StubSettings => ({
  rateLimits: { read: { limit: 240, windowMs: 60_000 }, write: { limit: 120, windowMs: 60_000 }, upload: { limit: 30, windowMs: 60_000 } },
  queueCaps: { total: 50, upload: 20, sima: 10, preview: 2 },
  carrierPolicies: {},
  quoteCorridors: [],
  featureFlags: {},
});

export async function startStub(route: StubRoute, options: { label?: string; primaryScopes?: string[]; primarySettings?: Partial<StubSettings> } = {}): Promise<StubTarget> {
  const label = options.label ?? 'stub';
  const adminToken = `${label}-admin`;
  const tenantsByKey = new Map<string, StubTenant>();
  const tenantsById = new Map<string, StubTenant>();
  const tokens = new Map<string, StubTenant>();
  let offsetSeconds = 0;

  const addTenant = (scopes: string[], apiKey = `tfk_${label}_${randomUUID().slice(0, 8)}`): StubTenant => {
    const tenant: StubTenant = { tenantId: randomUUID(), keyId: randomUUID(), apiKey, scopes, settings: defaultSettings() };
    tenantsByKey.set(apiKey, tenant);
    tenantsById.set(tenant.tenantId, tenant);
    return tenant;
  };
  const primary = addTenant(options.primaryScopes ?? ALL_SCOPES, `tfk_${label}_primary`);
  Object.assign(primary.settings, options.primarySettings ?? {});

  const control = (request: StubRequest): StubResponse | undefined => {
    if (request.headers.authorization !== `Bearer ${adminToken}`) return stubError(401, 'UNAUTHORIZED', 'admin token required');
    const json = request.body.length ? JSON.parse(request.body.toString('utf8')) : {};
    if (request.method === 'POST' && request.path === '/_sim/tenants') {
      const tenant = addTenant(Array.isArray(json.scopes) ? json.scopes : ALL_SCOPES);
      return { status: 201, body: { tenantId: tenant.tenantId, integrationKeyId: tenant.keyId, integrationKey: tenant.apiKey } };
    }
    const settings = /^\/_sim\/tenants\/([^/]+)\/settings$/.exec(request.path);
    if (settings) {
      const tenant = tenantsById.get(settings[1]);
      if (!tenant) return stubError(404, 'NOT_FOUND', 'no such tenant');
      if (request.method === 'PUT') {
        const current = tenant.settings;
        tenant.settings = {
          rateLimits: { ...current.rateLimits, ...(json.rateLimits ?? {}) },
          queueCaps: { ...current.queueCaps, ...(json.queueCaps ?? {}) },
          carrierPolicies: json.carrierPolicies ?? current.carrierPolicies,
          quoteCorridors: (json.quoteCorridors ?? current.quoteCorridors).map((c: StubSettings['quoteCorridors'][number]) => ({ enabled: true, ...c })),
          featureFlags: { ...current.featureFlags, ...(json.featureFlags ?? {}) },
        };
      }
      return { status: 200, body: tenant.settings };
    }
    if (request.method === 'POST' && request.path === '/_sim/clock/advance') {
      offsetSeconds += Number(json.seconds ?? 0);
      return { status: 200, body: { now: new Date(Date.now() + offsetSeconds * 1000).toISOString(), offsetSeconds } };
    }
    return undefined;
  };

  const exchange = (request: StubRequest): StubResponse => {
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey !== 'string' || !apiKey) return stubError(400, 'MISSING_API_KEY', 'x-api-key header is required');
    const tenant = tenantsByKey.get(apiKey);
    if (!tenant) return stubError(401, 'INVALID_API_KEY', 'unknown integration key');
    const payload = Buffer.from(JSON.stringify({ sub: tenant.keyId, tid: tenant.tenantId, scopes: tenant.scopes })).toString('base64url');
    const token = `eyJhbGciOiJIUzI1NiJ9.${payload}.${randomUUID().replace(/-/g, '')}`;
    tokens.set(token, tenant);
    return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: 3600, default_adapter: null } };
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stub');
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const request: StubRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks),
      tenant: bearer ? tokens.get(bearer) : undefined,
      tenantsByKey,
    };
    let answer: StubResponse | undefined;
    try {
      if (request.path.startsWith('/_sim/')) answer = control(request);
      else if (request.method === 'POST' && request.path === '/api/auth/token/integration') answer = exchange(request);
      else answer = await route(request);
    } catch (error) {
      answer = stubError(500, 'INTERNAL_ERROR', `stub error: ${(error as Error).message}`);
    }
    answer ??= stubError(404, 'NOT_FOUND', `${request.method} ${request.path} is not served by this stub`);
    const headers: Record<string, string> = { ...(answer.headers ?? {}) };
    if (answer.body !== undefined) headers['content-type'] = 'application/json';
    res.writeHead(answer.status, headers);
    res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    apiKey: primary.apiKey,
    adminToken,
    primary,
    options: (extra = {}) => ({ baseUrl: url, apiKey: primary.apiKey, adminToken, contract: 'v1.3.0', profile: 'simulator', seed: TEST_SEED, runs: 15, ...extra }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
