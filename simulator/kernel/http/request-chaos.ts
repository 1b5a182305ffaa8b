// Request chaos of one tenant (sandbox-defined, off by default; PUT /_sim/tenants/{id}/faults `requestChaos`):
// the transient failures spec 4 says any enqueue or workflow endpoint can answer ("Every enqueue/workflow
// endpoint can answer 401 `INVALID_TOKEN` and 429 `RATE_LIMITED`, and 500 `INTERNAL_ERROR`"), provoked on a
// schedule so that a client's retry rules (spec 7) can be watched. Not a defect: answering 500 now and then
// is within the spec, so the default stays faithful and no conformance check is owed for it.
//
// `serverErrorEvery: n` (n >= 1): the n-th, 2n-th, ... write (any method but GET/HEAD/OPTIONS) of the tenant
// since the setting was given answers 500 INTERNAL_ERROR before its handler runs: nothing is created or
// changed, so a retry is the first real attempt. `serverErrorAt: [w, ...]`: those writes (1-based) do.
// The count is per process (a cluster's instances count apart).
// The token exchange is not counted. The kernel keeps the setting among the tenant's fault settings under REQUEST_CHAOS_KEY (kernel/defects.ts).
import { markFault, type Defects, type TenantFaults } from '../defects.js';
import { internalError } from '../errors.js';

export interface RequestChaos {
  /** Every n-th write of the tenant answers 500 INTERNAL_ERROR; 0: never. */
  serverErrorEvery: number;
  /** These writes (1-based numbers since the setting was given) answer 500 INTERNAL_ERROR: a schedule
   *  that can refuse a write and its retry in a row. */
  serverErrorAt: number[];
}

const NO_CHAOS: Readonly<RequestChaos> = Object.freeze({ serverErrorEvery: 0, serverErrorAt: [] });

/** The key of the chaos among a tenant's fault settings (also the control API's member name). */
export const REQUEST_CHAOS_KEY = 'requestChaos';

/** The id the request log names in `faults` for a request this chaos answered. */
export const SERVER_ERROR_FAULT = 'requestChaos.serverError';

/** The setting to keep for what the control API was given: undefined when it changes nothing. */
export function requestChaosSetting(given: Partial<RequestChaos> | undefined): RequestChaos | undefined {
  const chaos = { ...NO_CHAOS, ...given };
  return chaos.serverErrorEvery > 0 || chaos.serverErrorAt.length > 0 ? chaos : undefined;
}

/** A tenant's request chaos read from its faults (the control API's answer): every member, unset ones off. */
export const requestChaosIn = (faults: TenantFaults): RequestChaos => ({ ...NO_CHAOS, ...(faults.settings[REQUEST_CHAOS_KEY] as Partial<RequestChaos> | undefined) });

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const TOKEN_EXCHANGE = 'exchangeIntegrationToken';

/** Writes counted per setting as given (a PUT starts the count again), shared by every version's router. */
const counts = new WeakMap<object, number>();

/** Throws the scheduled 500s of the tenant's writes (called once the tenant is known). */
export function requestChaos(defects: Pick<Defects, 'tenantSetting'>) {
  return (method: string, operationId: string, tenantId: string | null | undefined): void => {
    // The token exchange is decided before the tenant's faults apply (TEST-VALUES.md "Faults per tenant").
    if (!tenantId || READS.has(method.toUpperCase()) || operationId === TOKEN_EXCHANGE) return;
    const setting = defects.tenantSetting(REQUEST_CHAOS_KEY, tenantId) as Partial<RequestChaos> | undefined;
    if (!setting) return;
    const n = (counts.get(setting) ?? 0) + 1;
    counts.set(setting, n);
    const every = setting.serverErrorEvery ?? 0;
    if (!(every > 0 && n % every === 0) && !(setting.serverErrorAt ?? []).includes(n)) return;
    markFault(SERVER_ERROR_FAULT);
    throw internalError();
  };
}
