// The sandbox's control API (/_sim, admin token), as far as a client certification needs it: a tenant of
// its own, faults and settings for it, its clock, and the evidence afterwards. HTTP only: nothing here knows
// how the sandbox is built (the certification must not import simulator/).
import type { components } from '../contracts/generated/sandbox-control.js';
import type { Delivery, LoggedRequest } from './types.js';

type ControlSchemas = components['schemas'];
export type ClientCheckRegistration = ControlSchemas['ClientCheckRegistration'];
export type ClientCheckCompletion = ControlSchemas['ClientCheckCompletion'];
export type ClientCheckRun = ControlSchemas['ClientCheckRun'];

export interface SandboxControl {
  baseUrl: string;
  createTenant(name: string): Promise<{ tenantId: string; integrationKey: string }>;
  setFaults(tenantId: string, faults: { webhookChaos?: Record<string, unknown>; requestChaos?: Record<string, unknown> }): Promise<void>;
  setSettings(tenantId: string, settings: Record<string, unknown>): Promise<void>;
  advanceClock(tenantId: string, seconds: number): Promise<void>;
  /** Lets webhook deliveries reach these hosts despite the SSRF rules (local testing; sandbox-wide). */
  allowWebhookTargets(hosts: string[]): Promise<void>;
  requests(tenantId: string): Promise<LoggedRequest[]>;
  deliveries(tenantId: string): Promise<Delivery[]>;
  /** Records a scenario's run for the console (POST /_sim/client-checks); RouteMissing on an older sandbox. */
  registerClientCheck(registration: ClientCheckRegistration): Promise<ClientCheckRun>;
  /** Its verdict and report once judged (PUT /_sim/client-checks/{runId}/completion). */
  completeClientCheck(runId: string, completion: ClientCheckCompletion): Promise<ClientCheckRun>;
}

export class ControlError extends Error {}

/** A control route the sandbox does not serve: a build older than the route (404 "no route for ..."), or one
 *  that declares it without serving it yet (501). */
export class RouteMissing extends ControlError {}

const routeMissing = (status: number, text: string) => {
  if (status === 501) return true;
  if (status !== 404) return false;
  try {
    return String((JSON.parse(text) as { message?: unknown }).message).startsWith('no route for');
  } catch {
    return false;
  }
};

export function sandboxControl(baseUrl: string, adminToken: string): SandboxControl {
  const root = baseUrl.replace(/\/+$/, '');
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${root}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (routeMissing(response.status, text)) throw new RouteMissing(`${method} ${path}: ${response.status}, this sandbox does not serve the route`);
    if (!response.ok) throw new ControlError(`${method} ${path}: ${response.status} ${text.slice(0, 300)}${response.status === 401 ? ' (check the admin token: --admin-token or CONFORM_ADMIN_TOKEN)' : ''}`);
    return (text ? JSON.parse(text) : null) as T;
  }
  return {
    baseUrl: root,
    createTenant: (name) => call('POST', '/_sim/tenants', { name }),
    setFaults: async (tenantId, faults) => void (await call('PUT', `/_sim/tenants/${tenantId}/faults`, { defects: [], ...faults })),
    setSettings: async (tenantId, settings) => void (await call('PUT', `/_sim/tenants/${tenantId}/settings`, settings)),
    advanceClock: async (tenantId, seconds) => void (await call('POST', '/_sim/clock/advance', { seconds, tenantId })),
    async allowWebhookTargets(hosts) {
      const { targets } = await call<{ targets: string[] }>('GET', '/_sim/webhooks/allow-targets');
      const wanted = [...new Set([...targets, ...hosts])];
      if (wanted.length !== targets.length) await call('PUT', '/_sim/webhooks/allow-targets', { targets: wanted });
    },
    async requests(tenantId) {
      // Newest first, 200 a page: walked to the end, then put in order.
      const all: LoggedRequest[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: LoggedRequest[]; nextCursor: string | null } = await call('GET', `/_sim/requests?tenantId=${tenantId}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        all.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return all.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    },
    async deliveries(tenantId) {
      return (await call<{ deliveries: Delivery[] }>('GET', `/_sim/webhooks/deliveries?tenantId=${tenantId}`)).deliveries;
    },
    registerClientCheck: (registration) => call('POST', '/_sim/client-checks', registration),
    completeClientCheck: (runId, completion) => call('PUT', `/_sim/client-checks/${encodeURIComponent(runId)}/completion`, completion),
  };
}
