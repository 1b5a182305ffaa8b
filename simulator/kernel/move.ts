// The one pipeline of every lifecycle move (simulator/README.md "The domain template"):
//   load -> transition() by the table in force -> the move's changes -> compare-and-set save -> the saved record
// A save that loses a compare-and-set race (another request or instance moved the record first) loads and
// decides again, so a move is always judged on the state it is applied to; after `attempts` lost races it
// gives up with 409 ACTION_NOT_ALLOWED (spec 7: the client may retry). The transition log entry is written by
// the store itself (transition-log.ts `tracked()`: one entry per committed change of state, none for a
// refused move or a lost race), so the caller only shapes the answer.
import { actionNotAllowed, type ApiError, type ErrorDetails } from './errors.js';
import { transition, type Machine, type MachineSwitches } from './machine.js';

/** Lost compare-and-set races retried before giving up (each retry decides again on what it reads). */
const MOVE_ATTEMPTS = 5;

export interface MoveStep<R, S extends string, A extends string, C> {
  machine: Machine<S, A, C>;
  action: A;
  /** What guards and computed targets read (confirm-credit's outcome, a feed session's facts). */
  context: C | ((record: R) => C);
  /** The record as stored now, or undefined when it does not exist. */
  load(): Promise<R | undefined>;
  /** The error for a record that does not exist (404 in the spec's envelope). */
  missing(): ApiError;
  /** The record's state in this machine. */
  state(record: R): S;
  /** Refuses the move before the table is read (e.g. a SIMA result with no workflow); throws an ApiError. */
  precheck?(record: R): void | Promise<void>;
  /** The record after the move: its new state and what the move sets besides (timestamps, reasons). */
  apply(record: R, to: S): R | Promise<R>;
  /** Compare-and-set on the loaded record's revision: null when another writer won. */
  save(next: R): Promise<R | null>;
  /** Added to the 409 of a refused move (e.g. `subcode`, the resource id). */
  details?: ErrorDetails;
  /** The deviations in force (injected defects, variants): their rows apply to the table. */
  switches?: MachineSwitches;
  attempts?: number;
}

export interface Moved<R, S extends string> {
  record: R;
  from: S;
  to: S;
}

/** Moves one record through its machine: the pipeline above. */
export async function move<R, S extends string, A extends string, C>(step: MoveStep<R, S, A, C>): Promise<Moved<R, S>> {
  const attempts = step.attempts ?? MOVE_ATTEMPTS;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const record = await step.load();
    if (record === undefined) throw step.missing();
    await step.precheck?.(record);
    const from = step.state(record);
    const context = typeof step.context === 'function' ? (step.context as (r: R) => C)(record) : step.context;
    const to = transition(step.machine, from, step.action, context, step.details, step.switches);
    const saved = await step.save(await step.apply(record, to));
    if (saved) return { record: saved, from, to };
    // Another writer won the race: read again, decide again.
  }
  throw actionNotAllowed(`the ${step.machine.name} kept changing while ${step.action} was applied; try again`, { action: step.action, ...step.details });
}
