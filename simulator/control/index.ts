// The sandbox control API under /_sim/ (contracts/sandbox-control.openapi.yaml): operator-only actions,
// routed and validated from its own contract like the public API, behind the admin token.
import { timingSafeEqual } from 'node:crypto';
import { CONTROL_CONTRACT, loadContract } from '../../contracts/lib/bundle.js';
import { createContractSchemas } from '../../contracts/lib/schemas.js';
import type { Domains } from '../domains/index.js';
import type { KernelDeps } from '../kernel/deps.js';
import { invalidToken, notFound } from '../kernel/errors.js';
import { contractRouter } from '../kernel/http/contract-routes.js';
import type { RateLimiter } from '../kernel/http/rate-limit.js';
import type { HandlerRequest, HandlerTable } from '../kernel/http/types.js';
import { bootstrapSandbox, type SandboxIdentity } from './bootstrap.js';
import { DEFECT_CATALOGUE } from './defects.catalogue.js';
import { sandboxStore } from './sandbox.store.js';

export interface ControlOptions {
  deps: KernelDeps;
  domains: Domains;
  rateLimiter: RateLimiter;
  versions: Array<{ version: string; prefix: string }>;
  unhandled?: () => Record<string, string[]>;
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function createControl(options: ControlOptions) {
  const { deps, domains } = options;
  const sandbox = sandboxStore(deps);
  const tenantOf = (request: HandlerRequest) => {
    const tenant = domains.tenants.get(String(request.params.tenantId));
    if (!tenant) throw notFound('tenant');
    return tenant;
  };
  type KeyOptions = { scopes?: string[]; allowedAdapters?: string[] | null; defaultAdapter?: string | null; expiresAt?: string | null };

  const handlers: HandlerTable = {
    getSandboxStatus: () => {
      const counts: Record<string, number> = { tenants: domains.tenants.all().length };
      return { status: 200, body: { versions: options.versions, unhandled: options.unhandled?.() ?? {}, counts, now: deps.clock.nowIso() } };
    },
    createSandboxTenant: (request) => {
      const body = (request.body ?? {}) as KeyOptions & { name?: string };
      const tenant = domains.tenants.create({ name: body.name });
      const key = domains.auth.keys.create({ tenantId: tenant.id, ...body });
      return { status: 201, body: { tenantId: tenant.id, integrationKeyId: key.keyId, integrationKey: key.integrationKey } };
    },
    createSandboxIntegrationKey: (request) => {
      const tenant = tenantOf(request);
      const key = domains.auth.keys.create({ tenantId: tenant.id, ...((request.body ?? {}) as KeyOptions) });
      return { status: 201, body: { integrationKeyId: key.keyId, integrationKey: key.integrationKey } };
    },
    issueSandboxDashboardToken: async (request) => {
      const tenant = tenantOf(request);
      return { status: 201, body: { access_token: await domains.auth.issueDashboardToken(tenant.id), token_type: 'Bearer', expires_in: 3600, default_adapter: null } };
    },
    getSandboxTenantSettings: (request) => ({ status: 200, body: domains.tenants.settings(tenantOf(request).id) }),
    updateSandboxTenantSettings: (request) => {
      const tenant = tenantOf(request);
      const change = request.body as Partial<ReturnType<typeof domains.tenants.settings>>;
      const current = domains.tenants.settings(tenant.id);
      domains.tenants.update(tenant.id, (t) => ({
        ...t,
        settings: {
          ...current,
          ...change,
          rateLimits: { ...current.rateLimits, ...change.rateLimits },
          queueCaps: { ...current.queueCaps, ...change.queueCaps },
        },
      }));
      options.rateLimiter.reset(); // new limits start a fresh window
      return { status: 200, body: domains.tenants.settings(tenant.id) };
    },
    revokeSandboxIntegrationKey: (request) => {
      const key = domains.auth.keys.revoke(String(request.params.keyId));
      if (!key) throw notFound('integration key');
      return { status: 200, body: key };
    },
    getSandboxClock: () => ({ status: 200, body: clockState() }),
    advanceSandboxClock: (request) => {
      sandbox.advanceClock(Math.round(Number((request.body as { seconds: number }).seconds) * 1000));
      return { status: 200, body: clockState() };
    },
    listSandboxWebhookDeliveries: (request) => {
      const { tenantId, jobId } = request.query as { tenantId?: string; jobId?: string };
      return { status: 200, body: { deliveries: domains.webhooks.deliveries({ tenantId, jobId }) } };
    },
    // Defect injection (README "Defect injection"): the catalogue and the active set; an unknown id is 400.
    getSandboxDefects: () => ({ status: 200, body: defectState() }),
    setSandboxDefects: (request) => {
      deps.defects.set((request.body as { active: string[] }).active);
      deps.log.warn({ defects: deps.defects.active() }, 'defect injection changed');
      return { status: 200, body: defectState() };
    },
    resetSandbox: () => {
      const adminToken = sandbox.adminToken();
      deps.store.clear();
      options.rateLimiter.reset();
      sandbox.reinstate(adminToken);
      const identity = bootstrapSandbox(deps, domains, sandbox);
      return { status: 200, body: { tenantId: identity.tenantId, integrationKeyId: identity.integrationKeyId, integrationKey: identity.integrationKey } };
    },
  };
  const defectState = () => ({ catalogue: DEFECT_CATALOGUE.map((d) => ({ ...d })), active: deps.defects.active() });
  const clockState = () => ({ now: deps.clock.nowIso(), offsetSeconds: deps.clock.offsetMs() / 1000 });

  const doc = loadContract(CONTROL_CONTRACT);
  const { router } = contractRouter({
    doc,
    version: CONTROL_CONTRACT,
    schemas: createContractSchemas(doc),
    handlers,
    authenticate: async (_op, headers) => {
      const [scheme, token] = (headers.authorization ?? '').split(' ');
      if (scheme?.toLowerCase() !== 'bearer' || !token || !sameSecret(token, sandbox.adminToken())) throw invalidToken('admin token is missing or wrong');
      return null;
    },
    rateLimiter: { consume: () => {}, reset: () => {} },
    idempotency: { run: async (_scope, execute) => execute() },
    store: deps.store,
    uploadDir: '',
    maxFileBytes: 1024 * 1024,
  });
  return {
    router,
    /** Sets the sandbox up on start: clock, admin token, default tenant and key. */
    bootstrap: (): SandboxIdentity => bootstrapSandbox(deps, domains, sandbox),
  };
}
