// createSimulator(deps): the whole middleware order on one screen.
//   request id + log line + request log entry -> (instances sharing a database: this one made current) ->
//   fault scope (per tenant, X-Sim-Fault) -> response defects (off unless switched on) -> error envelope ->
//   (sharing: a control change published) -> site pages (/, /healthz, /contracts, /docs) -> console page
//   (/_sim/console) -> contract routes per served version -> dashboard-only routes -> /_sim control API
//   (and the claim packet)
// Each contract route runs: authenticate -> rate limit -> parse + validate -> idempotency -> handler -> flush.
import os from 'node:os';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import Koa from 'koa';
import { DASHBOARD_CONTRACT, loadContract } from '../contracts/lib/bundle.js';
import { createContractSchemas } from '../contracts/lib/schemas.js';
import { SERVABLE_VERSIONS } from './config.js';
import { consoleRoutes } from './console/routes.js';
import { createControl } from './control/index.js';
import type { SandboxIdentity } from './control/bootstrap.js';
import { createDomains, type Domains } from './domains/index.js';
import type { KernelDeps } from './kernel/deps.js';
import { contractRouter } from './kernel/http/contract-routes.js';
import { errorEnvelope } from './kernel/http/error-envelope.js';
import { faultScope } from './kernel/http/fault-scope.js';
import { createIdempotency } from './kernel/http/idempotency.js';
import { createRateLimiter, type RateLimiter } from './kernel/http/rate-limit.js';
import { requestLog } from './kernel/http/request-log.js';
import { responseDefects } from './kernel/http/response-defects.js';
import { createRequestJournal, DEFAULT_REQUEST_LOG_SIZE, type RequestJournal } from './kernel/request-journal.js';
import type { StoreHealth } from './site/health.js';
import { siteRoutes } from './site/site.routes.js';

export interface Simulator {
  app: Koa;
  deps: KernelDeps;
  domains: Domains;
  rateLimiter: RateLimiter;
  /** The request log of the public API (GET /_sim/requests); main.ts adds the HTTP parser's refusals. */
  requests: RequestJournal;
  /** Served versions and the URL prefix of each ('' for the default). */
  versions: Array<{ version: string; prefix: string }>;
  /** operationIds per version that answer 501 because their domain is not built yet. */
  unhandled: Record<string, string[]>;
  /** Sets up the sandbox (clock, admin token, default tenant) and resumes in-flight work. */
  start(): Promise<SandboxIdentity>;
  stop(): Promise<void>;
}

function servedVersions(contract: string, defaultVersion: string): Array<{ version: string; prefix: string }> {
  if (contract !== 'all') return [{ version: contract, prefix: '' }];
  return [{ version: defaultVersion, prefix: '' }, ...SERVABLE_VERSIONS.map((version) => ({ version, prefix: `/versions/${version}` }))];
}

/** What main.ts knows beyond the kernel: the store's write failures, for GET /healthz (site/health.ts). */
export interface SimulatorOptions {
  storeHealth?: StoreHealth;
}

export async function createSimulator(deps: KernelDeps, options: SimulatorOptions = {}): Promise<Simulator> {
  const startedAt = performance.now();
  const { config, store, log, ids } = deps;
  const domains = createDomains(deps);
  const rateLimiter = createRateLimiter(deps.clocks, async (tenantId) => (await domains.tenants.settings(tenantId)).rateLimits, { defects: deps.defects, shared: store.shared });
  const idempotency = createIdempotency(store, deps.clocks, config.idempotencyTtlMs, { defects: deps.defects });
  const uploadDir = config.artifactsDir ? path.join(config.artifactsDir, 'incoming') : path.join(os.tmpdir(), 'sim-uploads');
  mkdirSync(uploadDir, { recursive: true });

  const app = new Koa();
  app.proxy = false;
  // The request log of the public API (GET /_sim/requests): a bounded ring, SIM_REQUEST_LOG_SIZE entries.
  const requests = createRequestJournal(config.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE);
  const versions = servedVersions(config.contract, config.defaultVersion);
  const unhandled: Record<string, string[]> = {};
  const control = createControl({ deps, domains, rateLimiter, versions, unhandled: () => unhandled, requests });
  app.use(requestLog(log, ids, { journal: requests, clocks: deps.clocks }));
  // Instances sharing a database (issue 17): this one made current before anything reads control state.
  if (control.sync.enabled) app.use(control.sync.current());
  // Faults per tenant and per request (X-Sim-Fault): the scope every defect hook reads (kernel/defects.ts).
  app.use(faultScope(deps.defects, config));
  // Defect injection: outside the envelope, so it sees final bodies (README "Defect injection").
  app.use(responseDefects(deps.defects, domains.responseDefects));
  app.use(errorEnvelope(log));
  // ... and a control change it made published to the others, inside the envelope (a failure is an error).
  if (control.sync.enabled) app.use(control.sync.publisher());

  // The root page, /healthz, the served contracts and /docs (site/site.routes.ts): public, no tenant data.
  app.use(siteRoutes({ versions, store: config.storeUrl ? 'postgres' : config.dbPath ? 'file' : 'memory', storeHealth: options.storeHealth, startedAt }));
  // The sandbox console's page and assets (no data, no token); its data comes from the control API.
  app.use(consoleRoutes());
  /** One contract's routes, served with the public authentication (every operation has a principal). */
  const mount = (version: string, handlers: Parameters<typeof contractRouter>[0]['handlers'], prefix?: string) => {
    const doc = loadContract(version);
    const routes = contractRouter({
      doc,
      version,
      prefix,
      // Our own contracts, meta-checked by contracts.test.ts (schemas.ts checkComponents).
      schemas: createContractSchemas(doc, { checkComponents: false }),
      handlers,
      authenticate: domains.auth.authenticate,
      principalRequired: true,
      rateLimiter,
      idempotency,
      store,
      uploadDir,
      maxFileBytes: config.maxFileBytes,
      defects: deps.defects,
    });
    unhandled[version] = routes.unhandled;
    app.use(routes.router.routes());
  };
  for (const { version, prefix } of versions) mount(version, domains.handlers, prefix);
  // The dashboard-only routes (spec 1, 5.5): public authentication, then 403 for anything but a dashboard principal.
  mount(DASHBOARD_CONTRACT, domains.dashboardHandlers);
  // The control API after the public routes: its paths (/_sim/, the claim packet) are none of theirs, and a
  // public request then never walks the control router's table (issue 15: a read's cost).
  app.use(control.router.routes());
  const missing = Object.entries(unhandled).filter(([, ops]) => ops.length);
  if (config.strict && missing.length) {
    throw new Error(`strict mode: operations without a handler: ${missing.map(([v, ops]) => `${v}: ${ops.join(', ')}`).join('; ')}`);
  }

  return {
    app,
    deps,
    domains,
    rateLimiter,
    requests,
    versions,
    unhandled,
    async start() {
      const identity = await control.bootstrap();
      // Another instance may have changed the control state already: start from it, then keep up.
      await control.sync.refresh();
      control.sync.start();
      await domains.start();
      await store.flush();
      return identity;
    },
    async stop() {
      control.sync.stop();
      await domains.stop();
      deps.scheduler.stop();
      await store.close();
    },
  };
}
