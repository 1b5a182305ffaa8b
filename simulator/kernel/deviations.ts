// Deviations as data (issue 25): every way the sandbox can differ from its reference behaviour is one
// catalogue entry, declared by the domain that owns the behaviour, never a branch inside a handler.
// - A *defect* breaks a sentence of the spec on purpose: the conformance suite must catch it.
// - A *variant* is a choice the spec leaves open (a format "not shown", an order it does not fix): the
//   suite must accept it.
// An entry acts in one of three ways, all applied by the kernel where the behaviour is decided:
// - rows of a lifecycle table (`machine`: kernel/machine.ts applies them in transition());
// - rules at named hook points (`hooks`: a handler, store, worker or dispatcher passes a value through
//   `deviations.at(point, value, context)`, and each entry on at that point may change it);
// - response rewrites (`ResponseDefect`, kernel/http/response-defects.ts), for what only changes the bytes sent.
import type { MachineDeviation } from './machine.js';

type DeviationKind = 'defect' | 'variant';

/** Where a hook point sits: the seams of the simulator a deviation may act at. */
export type Seam = 'validation' | 'rule' | 'response' | 'store' | 'worker' | 'delivery' | 'auth';

/**
 * A named place where behaviour is decided, which deviations may change: `T` is the value decided there
 * (a rule enforced or not, a page's hasMore, a record about to be saved), `C` what the deviation may read.
 * A domain declares its points once (`<domain>.hooks.ts`) and the code deciding there names the point,
 * never an entry id.
 */
export interface HookPoint<T, C = undefined> {
  readonly seam: Seam;
  readonly name: string;
  /** Phantom: ties the point to its value and context types. */
  readonly _types?: (value: T, context: C) => void;
}

export function hookPoint<T, C = undefined>(seam: Seam, name: string): HookPoint<T, C> {
  return Object.freeze({ seam, name });
}

/** What an entry does at one hook point: the value in force with this entry on. */
export interface Hook<T = unknown, C = unknown> {
  point: HookPoint<T, C>;
  apply(value: T, context: C): T;
}

/** Declares an entry's rule at a point, typed by the point. */
export const at = <T, C>(point: HookPoint<T, C>, apply: (value: T, context: C) => T): Hook => ({ point, apply }) as unknown as Hook;

/** One entry of the deviation catalogue (README "Defect injection" and "Variants"). */
export interface DeviationEntry {
  id: string;
  kind: DeviationKind;
  /** What part of the interface deviates. */
  area: 'jobs' | 'auth' | 'errors' | 'isolation' | 'pagination' | 'idempotency' | 'webhooks' | 'limits' | 'billing' | 'validation' | 'sima' | 'landed-cost' | 'signup' | 'trade' | 'ship' | 'advanced-trade';
  /** What the simulator does while the entry is on. */
  description: string;
  /** A variant: the spec sentence that leaves the choice open (section and words). */
  spec?: string;
  /** Rows this entry adds to or removes from lifecycle tables. */
  machine?: readonly MachineDeviation[];
  /** Rules this entry applies at hook points. */
  hooks?: readonly Hook[];
}

/** What the catalogue shows of an entry (GET /_sim/defects): its data, not its rows and rules. */
export const describeEntry = ({ id, kind, area, description, spec }: DeviationEntry) => ({ id, kind, area, description, ...(spec ? { spec } : {}) });
