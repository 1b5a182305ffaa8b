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
