// Defect injection: the set of deliberate misbehaviours switched on for this run (SIM_DEFECTS at start,
// PUT /_sim/defects at run time). Off by default. Integrators use it to test their clients against a
// misbehaving server; the conformance suite uses it to prove each of its checks can fail. The ids are
// the catalogue's (simulator/control/defects.catalogue.ts), defects and variants alike (kernel/deviations.ts).
// An entry acts through the rows it adds to a lifecycle table (`machineDeviations`, read by transition()),
// its rules at hook points (`at`), a ResponseDefect, or, at the kernel's own seams, a `defects.has(id)`.
//
// Beside the sandbox-wide set, a defect can be on for one tenant (PUT /_sim/tenants/{id}/faults) or for one
// request (the `X-Sim-Fault` header, when the sandbox allows it). The hooks do not change for that: `has`
// (and `at`, `machineDeviations`) reads the fault scope of the code running now from an AsyncLocalStorage (the request's tenant and header
// faults, or the tenant of a scheduled task), so a hook deep in a domain needs no tenant argument.
// Every id `has` answers true for inside a request is remembered as having altered it (the request log).
import { AsyncLocalStorage } from 'node:async_hooks';
import { listed } from './http/validation-words.js';
import type { DeviationEntry, Hook, HookPoint } from './deviations.js';
import { invalidRequest } from './errors.js';
import type { MachineDeviation, MachineSwitches } from './machine.js';

/**
 * What is switched on for one tenant: catalogue defects, and the settings a domain keeps per tenant beside
 * them (how the webhooks domain's deliveries misbehave). The kernel holds a setting by the key its owner
 * chose without knowing what it means: the owner builds it (leaving out a setting that changes nothing) and
 * reads it back typed.
 */
export interface TenantFaults {
  defects: string[];
  settings: Readonly<Record<string, unknown>>;
}

/** A tenant's settings with the ones left unset (undefined) dropped: only what changes something is kept. */
const keptSettings = (settings: Readonly<Record<string, unknown>> = {}): Record<string, unknown> =>
  Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));

/** The fault scope of the code running now: one request, or one scheduled task of a tenant. */
interface FaultScope {
  tenantId: string | null;
  /** X-Sim-Fault ids of this request (already checked against the catalogue). */
  header: ReadonlySet<string>;
  /** Ids that altered this request, in the order they first did; null outside a request. */
  marked: string[] | null;
  /** The request's X-Request-Id (the transition log names it); null in background work. */
  requestId?: string | null;
}

const scopes = new AsyncLocalStorage<FaultScope>();

// Node 20's AsyncLocalStorage works through promise hooks: while it is enabled, every promise of the process
// pays for them (about 10 of the 65 µs of an authenticated read, issue 15 bench). So a scope is entered only
// where it matters (a request that may change state, whose transitions name it; any request or task while
// a fault is in use), and the storage is disabled again as soon as no scope is running and no fault is in use.
let running = 0;
/** Defects objects with a fault in use: sandbox-wide, for a tenant, or the header allowed at run time. */
const faultsInUse = new Set<object>();

/** Whether every request and task needs its scope now (a fault is in use somewhere). */
export const scopingWanted = (): boolean => faultsInUse.size > 0;

function inScope<T>(scope: FaultScope, fn: () => T): T {
  running += 1;
  let result: T;
  try {
    result = scopes.run(scope, fn);
  } catch (error) {
    leaveScope();
    throw error;
  }
  if (result instanceof Promise) return result.finally(leaveScope) as T;
  leaveScope();
  return result;
}

function leaveScope(): void {
  running -= 1;
  // Disabled a second after the last scope ended, not at once: switching V8's promise hooks on and off
  // between the requests of a steady write load cost more than keeping them. Work a finished request left
  // running (none should) loses its scope then: its transitions name no request.
  if (running === 0 && !idleCheck) idleCheck = setTimeout(disableWhenIdle, IDLE_BEFORE_DISABLE_MS).unref();
}

const IDLE_BEFORE_DISABLE_MS = 1000;
let idleCheck: NodeJS.Timeout | undefined;
function disableWhenIdle(): void {
  idleCheck = undefined;
  if (running === 0 && faultsInUse.size === 0) scopes.disable();
}

/**
 * Runs `fn` as one request: its header faults, its tenant once authentication names it (`enterTenant`),
 * and the list `marked` that collects the faults that altered it (the request log reads it back).
 */
export function inRequestScope<T>(header: readonly string[], marked: string[], fn: () => T, requestId: string | null = null): T {
  return inScope({ tenantId: null, header: new Set(header), marked, requestId }, fn);
}

/** The X-Request-Id of the request the code running now serves; null in background work (jobs, webhooks). */
export const currentRequestId = (): string | null => scopes.getStore()?.requestId ?? null;

/**
 * Runs `fn` as background work of one tenant (a job, a webhook attempt): the tenant's faults apply, no
 * request's header does. The scheduler wraps every task in it, so work a request started (a timer armed
 * while it ran) never inherits that request's header faults.
 */
export function inTenantScope<T>(tenantId: string | undefined, fn: () => T): T {
  // Without a fault in use a task needs no scope of its own, only none of the request's that armed it or
  // moved the clock (its transitions name no request).
  if (!scopingWanted()) return scopes.getStore() ? scopes.exit(fn) : fn();
  return inScope({ tenantId: tenantId ?? null, header: new Set(), marked: null }, fn);
}

/** Authentication named the request's tenant: its faults apply from here on. Outside a request: nothing. */
export function enterTenant(tenantId: string | null | undefined): void {
  const scope = scopes.getStore();
  if (scope && tenantId) scope.tenantId = tenantId;
}

/** Records that a fault altered the current request (no-op outside a request). */
export function markFault(id: string): void {
  const marked = scopes.getStore()?.marked;
  if (marked && !marked.includes(id)) marked.push(id);
}

/** The faults that altered the current request so far ([] outside a request). */
export function markedFaults(): string[] {
  return [...(scopes.getStore()?.marked ?? [])];
}

/** The tenant of the code running now, when known. */
const currentFaultTenant = (): string | null => scopes.getStore()?.tenantId ?? null;

export interface Defects extends MachineSwitches {
  /** On for the code running now: sandbox-wide, for its tenant, or by its request's header. Marks it. */
  has(id: string): boolean;
  /**
   * The value in force at a hook point: `value` passed through the rule of every entry on now that acts
   * there (in catalogue order). An entry whose rule changed the value is marked as having altered the request.
   */
  at<T, C>(point: HookPoint<T, C>, value: T, context?: C): T;
  /** Like `has`, without recording that it altered anything (a check before deciding to apply). */
  isOn(id: string): boolean;
  /** The sandbox-wide active ids, in catalogue order. */
  active(): string[];
  /** Replaces the sandbox-wide set; an unknown id throws 400 INVALID_REQUEST and changes nothing. */
  set(ids: string[]): void;
  /** Checks ids against the catalogue (400 INVALID_REQUEST naming `field`); answers them in catalogue order. */
  validate(ids: string[], field?: string): string[];
  /** What is on for one tenant (nothing unless set). */
  tenant(tenantId: string): TenantFaults;
  /** Replaces one tenant's faults (a setting left undefined is not kept); unknown ids are 400 and change nothing. */
  setTenant(tenantId: string, faults: { defects: string[]; settings?: Readonly<Record<string, unknown>> }): TenantFaults;
  /** One setting of the tenant running now (background work or a request), as its owner stored it; undefined when unset. */
  tenantSetting(key: string, tenantId?: string | null): unknown;
  /** Forgets every tenant's faults (a sandbox reset removes the tenants). */
  clearTenants(): void;
  /** The run-time X-Sim-Fault allowance (PUT /_sim/fault-header); null: SIM_ALLOW_FAULT_HEADER decides. */
  headerAllowance(): boolean | null;
  allowHeader(allowed: boolean | null): void;
  /** The whole run-time state (sandbox-wide set, every tenant's faults, the header allowance): what the
   *  instances sharing a database copy from one another (control/cluster-sync.ts, issue 17). */
  snapshot(): DefectsSnapshot;
  /** Replaces the whole run-time state with a snapshot; unknown ids are 400 and change nothing. */
  restore(snapshot: DefectsSnapshot): void;
}

export interface DefectsSnapshot {
  active: string[];
  tenants: Record<string, TenantFaults>;
  headerAllowance: boolean | null;
}

/** Nothing active and nothing settable: for kernel modules built without a Defects object. */
export const NO_DEFECTS: Defects = {
  has: () => false,
  at: (_point, value) => value,
  machineDeviations: () => [],
  mark: () => {},
  isOn: () => false,
  active: () => [],
  set(ids) {
    if (ids.length) throw invalidRequest('defect injection is not available here', 'active');
  },
  validate(ids, field = 'active') {
    if (ids.length) throw invalidRequest('defect injection is not available here', field);
    return [];
  },
  tenant: () => ({ defects: [], settings: {} }),
  setTenant() {
    throw invalidRequest('defect injection is not available here', 'defects');
  },
  tenantSetting: () => undefined,
  clearTenants: () => {},
  headerAllowance: () => false,
  allowHeader() {
    throw invalidRequest('defect injection is not available here', 'allowed');
  },
  snapshot: () => ({ active: [], tenants: {}, headerAllowance: null }),
  restore(snapshot) {
    if (snapshot.active.length || Object.keys(snapshot.tenants).length) throw invalidRequest('defect injection is not available here', 'active');
  },
};

/**
 * The run-time switches over a catalogue: entries (with their machine rows and hook rules) or bare ids
 * (tests). Rows and rules are indexed once, by machine name and by hook point.
 */
export function createDefects(initial: string[], entries: readonly (string | DeviationEntry)[]): Defects {
  const known = entries.map((e) => (typeof e === 'string' ? e : e.id));
  const catalogue = new Set(known);
  const rowsByMachine = new Map<string, Array<{ id: string; deviation: MachineDeviation }>>();
  const hooksByPoint = new Map<HookPoint<unknown, unknown>, Array<{ id: string; hook: Hook }>>();
  for (const entry of entries) {
    if (typeof entry === 'string') continue;
    for (const deviation of entry.machine ?? []) rowsByMachine.set(deviation.machine, [...(rowsByMachine.get(deviation.machine) ?? []), { id: entry.id, deviation }]);
    for (const hook of entry.hooks ?? []) hooksByPoint.set(hook.point, [...(hooksByPoint.get(hook.point) ?? []), { id: entry.id, hook }]);
  }
  let active = new Set<string>();
  let headerAllowance: boolean | null = null;
  const perTenant = new Map<string, { defects: Set<string>; settings: Readonly<Record<string, unknown>> }>();
  const validate = (ids: string[], field = 'active'): string[] => {
    const unknown = ids.filter((id) => !catalogue.has(id));
    if (unknown.length) {
      throw invalidRequest(`unknown defect id(s): ${listed(unknown)}; ${nearestIds(unknown, known)}`, field, { unknown });
    }
    const wanted = new Set(ids);
    return known.filter((id) => wanted.has(id));
  };
  const isOn = (id: string): boolean => {
    if (active.has(id)) return true;
    const scope = scopes.getStore();
    if (!scope) return false;
    return scope.header.has(id) || (scope.tenantId !== null && perTenant.get(scope.tenantId)?.defects.has(id) === true);
  };
  /** No defect switched on sandbox-wide or for a tenant, and no X-Sim-Fault on this request (the sandbox
   *  as users run it): a hook point's rules and a machine's deviation rows need not be looked at one by one. */
  const noneCanBeOn = (): boolean => active.size === 0 && perTenant.size === 0 && !scopes.getStore()?.header.size;
  const tenant = (tenantId: string): TenantFaults => {
    const faults = perTenant.get(tenantId);
    return { defects: known.filter((id) => faults?.defects.has(id)), settings: { ...faults?.settings } };
  };
  /** Keeps `faultsInUse` true to this object's faults (see scopingWanted). */
  const refresh = () => {
    if (active.size > 0 || perTenant.size > 0 || headerAllowance === true) faultsInUse.add(perTenant);
    else faultsInUse.delete(perTenant);
  };
  const defects: Defects = {
    has(id) {
      const on = isOn(id);
      if (on) markFault(id);
      return on;
    },
    at<T, C>(point: HookPoint<T, C>, value: T, context?: C): T {
      const rules = hooksByPoint.get(point as HookPoint<unknown, unknown>);
      if (!rules || noneCanBeOn()) return value;
      let current = value;
      for (const { id, hook } of rules) {
        if (!isOn(id)) continue;
        const next = hook.apply(current, context) as T;
        if (next !== current) markFault(id);
        current = next;
      }
      return current;
    },
    machineDeviations(machine) {
      const rows = rowsByMachine.get(machine);
      return rows && !noneCanBeOn() ? rows.filter((r) => isOn(r.id)) : [];
    },
    mark: markFault,
    isOn,
    active: () => known.filter((id) => active.has(id)),
    set(ids) {
      active = new Set(validate(ids));
      refresh();
    },
    validate,
    tenant,
    setTenant(tenantId, faults) {
      const ids = validate(faults.defects, 'defects');
      const settings = keptSettings(faults.settings);
      if (ids.length === 0 && Object.keys(settings).length === 0) perTenant.delete(tenantId);
      else perTenant.set(tenantId, { defects: new Set(ids), settings });
      refresh();
      return tenant(tenantId);
    },
    tenantSetting(key, tenantId = currentFaultTenant()) {
      return tenantId === null ? undefined : perTenant.get(tenantId)?.settings[key];
    },
    clearTenants: () => {
      perTenant.clear();
      refresh();
    },
    headerAllowance: () => headerAllowance,
    allowHeader(allowed) {
      headerAllowance = allowed;
      refresh();
    },
    snapshot: () => ({ active: known.filter((id) => active.has(id)), tenants: Object.fromEntries([...perTenant.keys()].map((id) => [id, tenant(id)])), headerAllowance }),
    restore(snapshot) {
      // Everything validated before anything changes.
      const sandboxWide = validate(snapshot.active);
      const tenants = Object.entries(snapshot.tenants).map(([id, faults]) => [id, { defects: new Set(validate(faults.defects, 'defects')), settings: keptSettings(faults.settings) }] as const);
      active = new Set(sandboxWide);
      perTenant.clear();
      for (const [id, faults] of tenants) perTenant.set(id, faults);
      headerAllowance = snapshot.headerAllowance;
      refresh();
    },
  };
  defects.set(initial);
  return defects;
}

/** One entry of the catalogue; `kind` says whether it is a defect or a variant (kernel/deviations.ts). */
export type DefectEntry = DeviationEntry;

/** What a response-level defect may change: the final status, body and headers of one response. */
interface DefectableResponse {
  status: number;
  body: unknown;
  type: string;
  remove(header: string): void;
}

/**
 * A defect that only changes what is sent (a field dropped, a wrong enum, code, status, header or content
 * type). The domain that owns the operation declares it; one middleware applies every active one to the
 * final response of the operations it names (kernel/http/response-defects.ts).
 */
export interface ResponseDefect {
  id: string;
  /** operationIds it touches, or '*' for every operation of the public contract. */
  operations: readonly string[] | '*';
  apply(response: DefectableResponse): void;
}

/** A JSON object body (not a stream, buffer or array): what response defects rewrite. */
export const isBodyObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value) && typeof (value as { pipe?: unknown }).pipe !== 'function';

/**
 * The usual response defect: rewrite the JSON object body of a 200 answer of these operations. `change`
 * answers the new body, or undefined to leave it as it is.
 */
export function rewriteSuccessBody(id: string, operations: readonly string[], change: (body: Record<string, unknown>) => Record<string, unknown> | undefined): ResponseDefect {
  return {
    id,
    operations,
    apply(res) {
      if (res.status !== 200 || !isBodyObject(res.body)) return;
      const next = change(res.body);
      if (next) res.body = next;
    },
  };
}

/** A response defect on each object item of the list `key` of a 200 answer (a results page, a SKU page). */
export function rewriteListItems(id: string, operations: readonly string[], key: string, change: (item: Record<string, unknown>) => Record<string, unknown>): ResponseDefect {
  return rewriteSuccessBody(id, operations, (body) => (Array.isArray(body[key]) ? { ...body, [key]: body[key].map((item) => (isBodyObject(item) ? change(item) : item)) } : undefined));
}

/**
 * What to try instead of unknown catalogue ids, short enough to read: the ids of the same area (the part
 * before the first dot), at most ten of them, and where the whole catalogue is listed.
 */
export function nearestIds(unknown: readonly string[], known: readonly string[]): string {
  const areas = new Set(unknown.map((id) => id.split('.')[0]));
  const near = known.filter((id) => areas.has(id.split('.')[0]));
  const all = `GET /_sim/defects lists all ${known.length}`;
  return near.length ? `known in the same area: ${listed(near)} (${all})` : `no known id shares its area (${all})`;
}
