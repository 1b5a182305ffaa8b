// The simulator's control API (/_sim), for checks of the simulator profile: the virtual clock, tenants,
// settings, deliveries, defects. Its responses are checked against the control contract too.
import { ConformanceClient, type FailureSink } from './client.js';
import { loadControlContract } from './contract.js';
import type { RunScope } from './run-scope.js';

export interface ClockState {
  now: string;
  offsetSeconds: number;
  tenantId?: string;
}

export class AdminClient {
  private readonly client: ConformanceClient;

  /** With a `scope` (run-scope.ts), sandbox-wide clock moves become moves of the run's own tenants. */
  constructor(baseUrl: string, private readonly adminToken: string, sink: FailureSink, readonly scope?: RunScope) {
    this.client = new ConformanceClient({ baseUrl, apiKey: '', contract: loadControlContract(), sink });
  }

  withSink(sink: FailureSink): AdminClient {
    return new AdminClient(this.client.baseUrl, this.adminToken, sink, this.scope);
  }

  private async call<T>(method: string, path: string, json?: unknown): Promise<T> {
    const exchange = await this.client.call(method, path, { auth: { bearer: this.adminToken }, json });
    if (exchange.response.status >= 300) throw new Error(`control API ${method} ${path} answered ${exchange.response.status}: ${exchange.response.text.slice(0, 300)}`);
    return exchange.response.body as T;
  }

  /**
   * Moves the sandbox-wide clock, or with `tenantId` only that tenant's clock. In a run scope (the simulator
   * profile), "the clock" is the run's: the primary tenant's clock and those of the tenants the run created,
   * moved together, so a run leaves the sandbox-wide clock, which every other tenant follows, where it was.
   */
  async advanceClock(seconds: number, tenantId?: string): Promise<ClockState> {
    if (tenantId !== undefined || !this.scope?.primaryTenantId) return this.advanceSandboxClock(seconds, tenantId);
    const moved = await this.advanceSandboxClock(seconds, this.scope.primaryTenantId);
    for (const follower of this.scope.followers()) await this.advanceSandboxClock(seconds, follower);
    return moved;
  }
  /** The sandbox clock, or with `tenantId` that tenant's clock; in a run scope, without it, the run's clock. */
  clock(tenantId?: string): Promise<ClockState> {
    return this.sandboxClock(tenantId ?? this.scope?.primaryTenantId);
  }
  /** POST /_sim/clock/advance as asked, whatever the scope: records of no tenant (a signup session) follow only the sandbox-wide clock. */
  advanceSandboxClock(seconds: number, tenantId?: string) {
    return this.call<ClockState>('POST', '/_sim/clock/advance', tenantId === undefined ? { seconds } : { seconds, tenantId });
  }
  /** GET /_sim/clock as asked, whatever the scope. */
  sandboxClock(tenantId?: string) {
    return this.call<ClockState>('GET', tenantId === undefined ? '/_sim/clock' : `/_sim/clock?tenantId=${encodeURIComponent(tenantId)}`);
  }
  /**
   * A new tenant. In a run scope it is the run's: its clock is brought level with the run's clock, it moves with
   * it, and it is deleted at the end of the check (`lifetime: 'check'`) or of the run (`'run'`). `status` is
   * sandbox-defined (a suspended tenant, spec 4.1 "tenant must be active").
   */
  async createTenant(body: { name?: string; scopes?: string[]; allowedAdapters?: string[] | null; defaultAdapter?: string | null; status?: 'active' | 'suspended' } = {}, lifetime: 'check' | 'run' = 'check') {
    const created = await this.call<{ tenantId: string; integrationKeyId: string; integrationKey: string }>('POST', '/_sim/tenants', body);
    if (this.scope) {
      this.scope.adopt(created.tenantId, lifetime);
      if (this.scope.primaryTenantId) {
        const behind = (await this.sandboxClock(this.scope.primaryTenantId)).offsetSeconds - (await this.sandboxClock(created.tenantId)).offsetSeconds;
        if (behind > 0) await this.advanceSandboxClock(behind, created.tenantId);
      }
    }
    return created;
  }
  /** DELETE /_sim/tenants/{tenantId} (sandbox-defined): the tenant and every record it owns. */
  deleteTenant(tenantId: string) {
    return this.call<{ tenantId: string; recordsRemoved: number }>('DELETE', `/_sim/tenants/${encodeURIComponent(tenantId)}`);
  }
  /** The webhook targets let through despite the SSRF rules (sandbox-defined, local testing only). */
  async allowTargets(): Promise<string[]> {
    return (await this.call<{ targets: string[] }>('GET', '/_sim/webhooks/allow-targets')).targets;
  }
  async setAllowTargets(targets: string[]): Promise<string[]> {
    return (await this.call<{ targets: string[] }>('PUT', '/_sim/webhooks/allow-targets', { targets })).targets;
  }
  /** The host names the sandbox's webhook dispatcher resolves itself (sandbox-defined, local testing only). */
  async resolverHosts(): Promise<Record<string, string>> {
    return (await this.call<{ hosts: Record<string, string> }>('GET', '/_sim/webhooks/resolver-hosts')).hosts;
  }
  async setResolverHosts(hosts: Record<string, string>): Promise<Record<string, string>> {
    return (await this.call<{ hosts: Record<string, string> }>('PUT', '/_sim/webhooks/resolver-hosts', { hosts })).hosts;
  }
  /** Another integration key of the tenant; `expiresAt` (ISO date-time) makes it expire (spec 7 EXPIRED_API_KEY). */
  createIntegrationKey(tenantId: string, body: { scopes?: string[]; expiresAt?: string | null } = {}) {
    return this.call<{ integrationKeyId: string; integrationKey: string }>('POST', `/_sim/tenants/${tenantId}/integration-keys`, body);
  }
  revokeKey(keyId: string) {
    return this.call<{ keyId: string }>('POST', `/_sim/integration-keys/${keyId}/revoke`);
  }
  dashboardToken(tenantId: string) {
    return this.call<{ access_token: string }>('POST', `/_sim/tenants/${tenantId}/dashboard-token`);
  }
  /** A dashboard review move on a SKU's current SIMA result (sandbox-defined: spec 3.5 shows no transitions). */
  reviewSimaResult(tenantId: string, sku: string, body: { action: 'accept' | 'override' | 'dismiss' | 'reopen'; note?: string }) {
    return this.call<Record<string, unknown>>('POST', `/_sim/tenants/${tenantId}/sima/results/${encodeURIComponent(sku)}/review`, body);
  }
  settings(tenantId: string) {
    return this.call<Record<string, unknown>>('GET', `/_sim/tenants/${tenantId}/settings`);
  }
  updateSettings(tenantId: string, settings: Record<string, unknown>) {
    return this.call<Record<string, unknown>>('PUT', `/_sim/tenants/${tenantId}/settings`, settings);
  }
  deliveries(filter: { tenantId?: string; jobId?: string } = {}) {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as Array<[string, string]>);
    return this.call<{ deliveries: Array<Record<string, any>> }>('GET', `/_sim/webhooks/deliveries${query.size ? `?${query}` : ''}`);
  }
  /** POST .../trade/feeds/{sessionId}/issues/acknowledge (sandbox-defined dashboard action): the exchange, whatever its status. */
  acknowledgeFeedIssues(tenantId: string, sessionId: string, issueKeys?: string[]) {
    return this.client.call('POST', `/_sim/tenants/${tenantId}/trade/feeds/${sessionId}/issues/acknowledge`, { auth: { bearer: this.adminToken }, json: issueKeys ? { issueKeys } : {} });
  }
  status() {
    return this.call<{ versions: unknown[]; unhandled: Record<string, string[]>; counts: Record<string, number>; now: string; idempotencyKeyTtlSeconds?: number }>('GET', '/_sim/status');
  }
}
