// The sandbox control API under /_sim/ (contracts/sandbox-control.openapi.yaml): operator-only actions,
// routed and validated from its own contract like the public API, behind the admin token.
import { KERNEL_HOOKS } from '../kernel/kernel.hooks.js';
import { timingSafeEqual } from 'node:crypto';
import { CONTROL_CONTRACT, loadContract } from '../../contracts/lib/bundle.js';
import { createContractSchemas } from '../../contracts/lib/schemas.js';
import type { Domains } from '../domains/index.js';
import type { KernelDeps } from '../kernel/deps.js';
import type { TenantFaults } from '../kernel/defects.js';
import { invalidToken, notFound } from '../kernel/errors.js';
import { contractRouter } from '../kernel/http/contract-routes.js';
import type { RateLimiter } from '../kernel/http/rate-limit.js';
import type { ControlHandlerTable } from '../kernel/http/types.js';
import { settingsOf, type TenantSettings } from '../domains/tenants/index.js';
import { bootstrapSandbox, type SandboxIdentity } from './bootstrap.js';
import { describeEntry } from '../kernel/deviations.js';
import { DEFECT_CATALOGUE } from './defects.catalogue.js';
import { faultHeaderAllowed } from '../kernel/http/fault-scope.js';
import { TEST_VALUES } from './test-values.js';
import { sandboxStore } from './sandbox.store.js';
import { tenantPurge } from './tenant-purge.js';
import type { RequestJournal } from '../kernel/request-journal.js';
import { logHandlers } from './logs.routes.js';
import { lifecycleHandlers } from './lifecycles.js';
import { clusterSync } from './cluster-sync.js';
import { clientCheckHandlers, clientChecks } from './client-checks.js';
import { WEBHOOK_CHAOS_KEY, webhookChaosIn, webhookChaosSetting } from '../domains/webhooks/webhook-chaos.js';
import { REQUEST_CHAOS_KEY, requestChaosIn, requestChaosSetting } from '../kernel/http/request-chaos.js';

export interface ControlOptions {
  deps: KernelDeps;
  domains: Domains;
  rateLimiter: RateLimiter;
  versions: Array<{ version: string; prefix: string }>;
  unhandled?: () => Record<string, string[]>;
  /** The request log of the public API (GET /_sim/requests), written by the request-log middleware. */
  requests: RequestJournal;
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The control API's view of one tenant's faults (sandbox-control contract `TenantFaults`). */
const tenantFaultsBody = (tenantId: string, faults: TenantFaults) => ({
  tenantId,
  defects: faults.defects,
  webhookChaos: webhookChaosIn(faults),
  requestChaos: requestChaosIn(faults),
});

export function createControl(options: ControlOptions) {
  const { deps, domains } = options;
  const sandbox = sandboxStore(deps);
  const purge = tenantPurge(deps);
  const tenantNamed = async (tenantId: string) => {
    const tenant = await domains.tenants.get(tenantId);
    if (!tenant) throw notFound('tenant');
    return tenant;
  };
  const clockState = async (tenantId?: string) => {
    if (tenantId === undefined) return { now: deps.clock.nowIso(), offsetSeconds: deps.clock.offsetMs() / 1000 };
    const clock = deps.clocks.of((await tenantNamed(tenantId)).id);
    return { tenantId, now: clock.nowIso(), offsetSeconds: clock.offsetMs() / 1000 };
  };
  const faultHeaderState = () => ({ allowed: faultHeaderAllowed(deps.defects, deps.config), setting: deps.defects.headerAllowance(), environment: deps.config.allowFaultHeader === true });
  const defectState = () => ({ catalogue: DEFECT_CATALOGUE.map(describeEntry), active: deps.defects.active() });

  const handlers = {
    getSandboxStatus: async () => {
      const counts: Record<string, number> = { tenants: await domains.tenants.count() };
      return {
        status: 200,
        body: {
          versions: options.versions,
          unhandled: options.unhandled?.() ?? {},
          counts,
          now: deps.clock.nowIso(),
          // Sandbox-defined (spec 8.5 does not show the expiry): lets the simulator profile test it.
          idempotencyKeyTtlSeconds: deps.defects.at(KERNEL_HOOKS.idempotencyTtlMs, deps.config.idempotencyTtlMs) / 1000,
        },
      };
    },
    // Sandbox-defined: the console's tenant picker (names and ids; keys are never listed).
    listSandboxTenants: async ({ query }) => ({ status: 200, body: await domains.tenants.list({ limit: query.limit ?? 100, offset: query.offset ?? 0 }) }),
    createSandboxTenant: async ({ body = {} }) => {
      const { status, ...keyOptions } = body;
      // Sandbox-defined `status` (spec 4.1 "tenant must be active"): a suspended tenant to try that refusal on.
      const tenant = await domains.tenants.create({ name: body.name, status });
      const key = await domains.auth.keys.create({ tenantId: tenant.id, ...keyOptions });
      return { status: 201, body: { tenantId: tenant.id, integrationKeyId: key.keyId, integrationKey: key.integrationKey } };
    },
    // Sandbox-defined (tenant-purge.ts): the tenant and every record it owns; the conformance CLI's cleanup.
    deleteSandboxTenant: async ({ params }) => {
      const tenant = await tenantNamed(params.tenantId);
      const recordsRemoved = await purge.purge(tenant.id);
      deps.log.info({ tenantId: tenant.id, recordsRemoved }, 'tenant deleted');
      return { status: 200, body: { tenantId: tenant.id, recordsRemoved } };
    },
    createSandboxIntegrationKey: async ({ params, body = {} }) => {
      const tenant = await tenantNamed(params.tenantId);
      const key = await domains.auth.keys.create({ tenantId: tenant.id, ...body });
      return { status: 201, body: { integrationKeyId: key.keyId, integrationKey: key.integrationKey } };
    },
    issueSandboxDashboardToken: async ({ params }) => {
      const tenant = await tenantNamed(params.tenantId);
      return { status: 201, body: { access_token: await domains.auth.issueDashboardToken(tenant.id), token_type: 'Bearer', expires_in: 3600, default_adapter: null } };
    },
    getSandboxTenantSettings: async ({ params }) => ({ status: 200, body: await domains.tenants.settings((await tenantNamed(params.tenantId)).id) }),
    updateSandboxTenantSettings: async ({ params, body }) => {
      const tenant = await tenantNamed(params.tenantId);
      const change = body as Partial<TenantSettings>;
      await domains.tenants.update(tenant.id, (t) => {
        const current = settingsOf(t);
        return {
          ...t,
          settings: {
            ...current,
            ...change,
            rateLimits: { ...current.rateLimits, ...change.rateLimits },
            queueCaps: { ...current.queueCaps, ...change.queueCaps },
          },
        };
      });
      await options.rateLimiter.reset(tenant.id); // its new limits start a fresh window, on every instance
      return { status: 200, body: await domains.tenants.settings(tenant.id) };
    },
    // A dashboard action (spec 3.5, sandbox-defined moves): 404 without a result, 409 for a refused move.
    reviewSandboxSimaResult: async ({ params, body }) => {
      const tenant = await tenantNamed(params.tenantId);
      return { status: 200, body: await domains.sima.review(tenant.id, params.sku, body.action, body.note ?? null) };
    },
    // Sandbox-defined (spec 2.4 shows isStale, not how config changes): the tenant's results go stale.
    publishSandboxSimaMeasuresConfig: async ({ params, body }) => {
      const tenant = await tenantNamed(params.tenantId);
      return { status: 200, body: await domains.sima.publishMeasuresConfig(tenant.id, { version: body?.version, note: body?.note ?? null }) };
    },
    // Sandbox-defined (spec 4.6 rule 5 names billable usage, not how to read it): the tenant's billable quotes.
    getSandboxTenantUsage: async ({ params, query }) => {
      const tenant = await tenantNamed(params.tenantId);
      return { status: 200, body: await domains.landedCost.usage(tenant.id, { limit: query.limit ?? 100, offset: query.offset ?? 0 }) };
    },
    // A dashboard action (spec 1, 5.5: out of the public surface): 404 unknown session or issue, 409 blocking.
    // Sandbox-defined (spec 3.4: operator close, no public operation): any status but CLOSED -> CLOSED.
    closeSandboxClaimSubmission: async ({ params, body }) => {
      const tenant = await tenantNamed(params.tenantId);
      return { status: 200, body: { submission: await domains.ship.closeSubmission(tenant.id, params.submissionId, body?.reason ?? null) } };
    },
    acknowledgeSandboxFeedIssues: async ({ params, body }) => {
      const tenant = await tenantNamed(params.tenantId);
      return { status: 200, body: await domains.trade.acknowledgeIssues(tenant.id, params.sessionId, body?.issueKeys) };
    },
    revokeSandboxIntegrationKey: async ({ params }) => {
      const key = await domains.auth.keys.revoke(params.keyId);
      if (!key) throw notFound('integration key');
      return { status: 200, body: key };
    },
    getSandboxClock: async ({ query }) => ({ status: 200, body: await clockState(query.tenantId) }),
    advanceSandboxClock: async ({ body }) => {
      // A tenant's own clock moves only that tenant: its tokens, jobs, retries, keys and windows.
      if (body.tenantId !== undefined) await tenantNamed(body.tenantId);
      await sandbox.advanceClock(Math.round(Number(body.seconds) * 1000), body.tenantId);
      return { status: 200, body: await clockState(body.tenantId) };
    },
    // Sandbox-defined, local testing only (webhooks/allow-targets.ts): the SSRF allow list, replaceable at run time.
    getSandboxWebhookAllowTargets: () => ({ status: 200, body: { targets: [...domains.webhooks.allowTargets.list()] } }),
    setSandboxWebhookAllowTargets: ({ body }) => {
      const targets = [...domains.webhooks.allowTargets.replace(body.targets)];
      deps.log.warn({ targets }, 'webhook allow list changed');
      return { status: 200, body: { targets } };
    },
    // Sandbox-defined, local testing only (webhooks/resolver-hosts.ts): names the delivery resolver answers itself.
    getSandboxWebhookResolverHosts: () => ({ status: 200, body: { hosts: { ...domains.webhooks.resolverHosts.list() } } }),
    setSandboxWebhookResolverHosts: ({ body }) => {
      const hosts = { ...domains.webhooks.resolverHosts.replace(body.hosts) };
      deps.log.warn({ hosts }, 'webhook resolver hosts changed');
      return { status: 200, body: { hosts } };
    },
    // Sandbox-defined (issue 16): the request log and the transition log (logs.routes.ts).
    ...logHandlers(deps, options.requests),
    // Sandbox-defined (issue 29): every lifecycle's table in force, which the console draws (lifecycles.ts).
    ...lifecycleHandlers(deps.defects),
    // Sandbox-defined (issue 28): the client-check runs of npm run certify:client (client-checks.ts).
    ...clientCheckHandlers(clientChecks(deps), tenantNamed),
    listSandboxWebhookDeliveries: async ({ query }) => ({ status: 200, body: { deliveries: await domains.webhooks.deliveries({ tenantId: query.tenantId, jobId: query.jobId }) } }),
    // Sandbox-defined, local testing only (issue 29 item 7: `tfas trigger`, `tfas resend`): a sample event for
    // a job with a webhook, and a past delivery sent again, each a new delivery made and sent by the webhooks
    // domain as its real ones are (deliveries.ts). Spec 6 rule 3 keeps the public API without manual retry.
    triggerSandboxWebhook: async ({ body }) => {
      const delivery = await domains.webhooks.trigger({ jobId: body.jobId, event: body.event, tenantId: body.tenantId });
      deps.log.info({ deliveryId: delivery.id, jobId: delivery.jobId, event: delivery.event }, 'webhook sample triggered');
      return { status: 201, body: delivery };
    },
    redeliverSandboxWebhookDelivery: async ({ params }) => {
      const delivery = await domains.webhooks.redeliver(params.deliveryId);
      deps.log.info({ deliveryId: delivery.id, redeliveryOf: delivery.redeliveryOf }, 'webhook delivery sent again');
      return { status: 201, body: delivery };
    },
    // Defect injection (README "Defect injection"): the catalogue and the active set; an unknown id is 400.
    getSandboxDefects: () => ({ status: 200, body: defectState() }),
    // Faults of one tenant (kernel/defects.ts): catalogue defects, the webhooks domain's chaos
    // (webhooks/webhook-chaos.ts), which the kernel keeps without reading, and the request chaos
    // (kernel/http/request-chaos.ts: scheduled transient 500s); sandbox-defined.
    getSandboxTenantFaults: async ({ params }) => {
      const tenant = await tenantNamed(params.tenantId);
      return { status: 200, body: tenantFaultsBody(tenant.id, deps.defects.tenant(tenant.id)) };
    },
    setSandboxTenantFaults: async ({ params, body }) => {
      const tenant = await tenantNamed(params.tenantId);
      const faults = tenantFaultsBody(tenant.id, deps.defects.setTenant(tenant.id, { defects: body.defects, settings: { [WEBHOOK_CHAOS_KEY]: webhookChaosSetting(body.webhookChaos), [REQUEST_CHAOS_KEY]: requestChaosSetting(body.requestChaos) } }));
      deps.log.warn(faults, 'tenant faults changed');
      return { status: 200, body: faults };
    },
    getSandboxFaultHeader: () => ({ status: 200, body: faultHeaderState() }),
    setSandboxFaultHeader: ({ body }) => {
      deps.defects.allowHeader(body.allowed ?? null);
      return { status: 200, body: faultHeaderState() };
    },
    getSandboxTestValues: () => ({ status: 200, body: { items: TEST_VALUES.map((v) => ({ id: v.id, area: v.area, value: v.value, effect: v.effect, operation: v.operation })) } }),
    setSandboxDefects: ({ body }) => {
      deps.defects.set(body.active);
      deps.log.warn({ defects: deps.defects.active() }, 'defect injection changed');
      return { status: 200, body: defectState() };
    },
    // Signup of the archived contracts (spec 4.7): sandbox-defined settings, verification email and review.
    getSandboxSignupSettings: async () => ({ status: 200, body: await domains.signup.settings() }),
    updateSandboxSignupSettings: async ({ body }) => ({ status: 200, body: await domains.signup.updateSettings(body) }),
    getSandboxSignupVerification: async ({ params }) => ({ status: 200, body: await domains.signup.verification(params.sessionId) }),
    reviewSandboxSignupSession: async ({ params, body }) => ({ status: 200, body: await domains.signup.review(params.sessionId, body.decision, body.reason ?? null) }),
    resetSandbox: async () => {
      const adminToken = await sandbox.adminToken();
      await deps.store.clear();
      domains.auth.forgetCachedSecrets();
      options.requests.clear();
      deps.defects.clearTenants(); // their tenants are gone (the sandbox-wide defects stay)
      await options.rateLimiter.reset();
      await sandbox.reinstate(adminToken);
      const identity = await bootstrapSandbox(deps, domains, sandbox);
      return { status: 200, body: { tenantId: identity.tenantId, integrationKeyId: identity.integrationKeyId, integrationKey: identity.integrationKey } };
    },
  } satisfies ControlHandlerTable;

  const doc = loadContract(CONTROL_CONTRACT);
  const { router } = contractRouter({
    doc,
    version: CONTROL_CONTRACT,
    // Our own contracts, meta-checked by contracts.test.ts (schemas.ts checkComponents).
    schemas: createContractSchemas(doc, { checkComponents: false }),
    handlers,
    authenticate: async (_op, headers) => {
      const [scheme, token] = (headers.authorization ?? '').split(' ');
      if (scheme?.toLowerCase() !== 'bearer' || !token || !sameSecret(token, await sandbox.adminToken())) throw invalidToken('admin token is missing or wrong');
      return null;
    },
    rateLimiter: { consume: async () => {}, reset: async () => {} },
    idempotency: { run: async (_scope, execute) => execute() },
    store: deps.store,
    uploadDir: '',
    maxFileBytes: 1024 * 1024,
  });
  // A claim packet at its packetUrl (spec 2.7): a document the sandbox serves to the owning tenant's bearer,
  // not a contract operation, so it is mounted here beside the control routes (ship/claim.routes.ts).
  router.get(domains.ship.packetPath, domains.ship.packetRoute);
  // Instances sharing a database copy the control state from one another (issue 17; no-op otherwise).
  const sync = clusterSync({
    deps,
    allowTargets: domains.webhooks.allowTargets,
    resolverHosts: domains.webhooks.resolverHosts,
    restoreClocks: () => sandbox.restoreClocks(),
    forgetSandbox: () => {
      domains.auth.forgetCachedSecrets();
      deps.clocks.resetTenants();
      options.requests.clear();
      void options.rateLimiter.reset();
    },
  });
  return {
    router,
    sync,
    /** Sets the sandbox up on start: clocks, admin token, default tenant and key. */
    bootstrap: (): Promise<SandboxIdentity> => bootstrapSandbox(deps, domains, sandbox),
  };
}
