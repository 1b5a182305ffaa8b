// Defect injection: the set of deliberate misbehaviours switched on for this run (SIM_DEFECTS at start,
// PUT /_sim/defects at run time). Off by default. Integrators use it to test their clients against a
// misbehaving server; the conformance suite uses it to prove each of its checks can fail. The ids are
// the catalogue's (simulator/control/defects.catalogue.ts); every hook asks `defects.has` for one id.
import { invalidRequest } from './errors.js';

export interface Defects {
  has(id: string): boolean;
  /** The active ids, in catalogue order. */
  active(): string[];
  /** Replaces the active set; an unknown id throws 400 INVALID_REQUEST and changes nothing. */
  set(ids: string[]): void;
}

/** Nothing active and nothing settable: for kernel modules built without a Defects object. */
export const NO_DEFECTS: Defects = {
  has: () => false,
  active: () => [],
  set(ids) {
    if (ids.length) throw invalidRequest('defect injection is not available here', 'active');
  },
};

export function createDefects(initial: string[], known: string[]): Defects {
  const catalogue = new Set(known);
  let active = new Set<string>();
  const validated = (ids: string[]): Set<string> => {
    const unknown = ids.filter((id) => !catalogue.has(id));
    if (unknown.length) {
      throw invalidRequest(`unknown defect id(s): ${unknown.join(', ')} (known: ${known.join(', ')})`, 'active', { unknown });
    }
    return new Set(ids);
  };
  const defects: Defects = {
    has: (id) => active.has(id),
    active: () => known.filter((id) => active.has(id)),
    set(ids) {
      active = validated(ids);
    },
  };
  defects.set(initial);
  return defects;
}

/** One entry of the defect catalogue (README "Defect injection"); each domain declares its own. */
export interface DefectEntry {
  id: string;
  /** What part of the interface misbehaves. */
  area: 'jobs' | 'auth' | 'errors' | 'isolation' | 'pagination' | 'idempotency' | 'webhooks' | 'limits' | 'billing' | 'validation' | 'sima' | 'landed-cost' | 'signup' | 'trade' | 'ship' | 'advanced-trade';
  /** What the simulator does wrong while the defect is on. */
  description: string;
}

/** What a response-level defect may change: the final status, body and headers of one response. */
export interface DefectableResponse {
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
