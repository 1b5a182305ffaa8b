// The simulator's control API (/_sim), for checks of the simulator profile: the virtual clock, tenants,
// settings, deliveries, defects. Its responses are checked against the control contract too.
import { ConformanceClient, type FailureSink } from './client.js';
import { loadControlContract } from './contract.js';

export class AdminClient {
  private readonly client: ConformanceClient;

  constructor(baseUrl: string, private readonly adminToken: string, sink: FailureSink) {
    this.client = new ConformanceClient(baseUrl, '', loadControlContract(), sink);
  }

  withSink(sink: FailureSink): AdminClient {
    return new AdminClient(this.client.baseUrl, this.adminToken, sink);
  }

  private async call<T>(method: string, path: string, json?: unknown): Promise<T> {
    const exchange = await this.client.call(method, path, { auth: { bearer: this.adminToken }, json });
    if (exchange.response.status >= 300) throw new Error(`control API ${method} ${path} answered ${exchange.response.status}: ${exchange.response.text.slice(0, 300)}`);
    return exchange.response.body as T;
  }

  /** Moves the sandbox-wide clock, or with `tenantId` only that tenant's clock. */
  advanceClock(seconds: number, tenantId?: string) {
    return this.call<{ now: string; offsetSeconds: number }>('POST', '/_sim/clock/advance', tenantId === undefined ? { seconds } : { seconds, tenantId });
  }
  /** The sandbox clock, or with `tenantId` that tenant's clock. */
  clock(tenantId?: string) {
    return this.call<{ now: string; offsetSeconds: number }>('GET', tenantId === undefined ? '/_sim/clock' : `/_sim/clock?tenantId=${encodeURIComponent(tenantId)}`);
  }
  /** `status` is sandbox-defined (a suspended tenant, spec 4.1 "tenant must be active"). */
  createTenant(body: { name?: string; scopes?: string[]; allowedAdapters?: string[] | null; defaultAdapter?: string | null; status?: 'active' | 'suspended' } = {}) {
    return this.call<{ tenantId: string; integrationKeyId: string; integrationKey: string }>('POST', '/_sim/tenants', body);
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
