// Lifecycles as data: a table of transitions per machine, read by one transition() that refuses every
// move the table does not allow with the spec's 409 ACTION_NOT_ALLOWED.
// transition() only computes the next state; each move is recorded when the record holding the state is
// written (transition-log.ts: the append-only log behind GET /_sim/transitions), so a refused move or a
// compare-and-set that loses a race records nothing. move.ts is the one pipeline around it.
//
// A deviation of a lifecycle (an injected defect the suite must catch, or a legitimate variant it must
// accept) is data too: rows added to or removed from a table, declared by the domain's `*.defects.ts` beside
// the catalogue entry that names it, and applied here when the entry is on (`tableOf`). So the table
// transition() reads is always the whole truth, with or without a deviation.
import { actionNotAllowed, type ErrorDetails } from './errors.js';

interface Transition<S extends string, A extends string, C> {
  from: readonly S[];
  action: A;
  /** Next state; a function when the outcome depends on the request (confirm-credit). */
  to: S | ((context: C, current: S) => S);
  /** A named precondition; returning a string refuses the move with that reason. */
  guard?: (context: C, current: S) => string | undefined;
}

export interface Machine<S extends string, A extends string, C> {
  name: string;
  states: readonly S[];
  terminal: readonly S[];
  transitions: ReadonlyArray<Transition<S, A, C>>;
}

function checkStates<S extends string, A extends string, C>(machine: Machine<S, A, C>, rows: ReadonlyArray<Transition<S, A, C>>, where: string): void {
  for (const t of rows) {
    for (const state of [...t.from, ...(typeof t.to === 'string' ? [t.to] : [])]) {
      if (!machine.states.includes(state)) throw new Error(`${machine.name}: unknown state ${state} in ${t.action}${where}`);
    }
  }
}

export function defineMachine<S extends string, A extends string, C = unknown>(machine: Machine<S, A, C>): Machine<S, A, C> {
  checkStates(machine, machine.transitions, '');
  return machine;
}

/** Rows a deviation takes out of a table: the move of `action` from each state of `from`. */
interface RemovedMove<S extends string, A extends string> {
  from: readonly S[];
  action: A;
}

/**
 * How one catalogue entry (defect or variant) changes one machine's table. Added rows come before the
 * table's own, so an added row for a move the table already has replaces it from its `from` states.
 */
export interface MachineDeviation<S extends string = string, A extends string = string, C = never> {
  /** The machine's `name`. */
  machine: string;
  add?: ReadonlyArray<Transition<S, A, C>>;
  remove?: ReadonlyArray<RemovedMove<S, A>>;
}

/** Builds a deviation of `machine`, typed by its states, actions and context, checked like its table. */
export function deviateMachine<S extends string, A extends string, C>(machine: Machine<S, A, C>, change: Omit<MachineDeviation<S, A, C>, 'machine'>): MachineDeviation {
  checkStates(machine, change.add ?? [], ` (deviation)`);
  return { machine: machine.name, ...change } as unknown as MachineDeviation;
}

/** Which deviations are on for the code running now (kernel/defects.ts `Defects` is one). */
export interface MachineSwitches {
  /** The deviations declared for this machine that are on now, with the entry id of each. */
  machineDeviations(machine: string): ReadonlyArray<{ id: string; deviation: MachineDeviation }>;
  /** Records that entry `id` altered what the code running now does (the request log's `faults`). */
  mark(id: string): void;
}

/** A row of the table in force, with the entry that put it there (null: the machine's own row). */
export interface RowInForce<S extends string, A extends string, C> extends Transition<S, A, C> {
  deviation: string | null;
}

/** The table in force: the machine's rows with every deviation that is on applied (none: the table itself). */
export function tableOf<S extends string, A extends string, C>(machine: Machine<S, A, C>, switches?: MachineSwitches): ReadonlyArray<RowInForce<S, A, C>> {
  const own = machine.transitions.map((t) => ({ ...t, deviation: null }));
  const on = switches?.machineDeviations(machine.name) ?? [];
  if (!on.length) return own;
  const added: RowInForce<S, A, C>[] = [];
  let rows: RowInForce<S, A, C>[] = own;
  for (const { id, deviation } of on) {
    const d = deviation as unknown as MachineDeviation<S, A, C>;
    for (const t of d.add ?? []) added.push({ ...t, deviation: id });
    for (const r of d.remove ?? []) {
      rows = rows.flatMap((t) => {
        if (t.action !== r.action) return [t];
        const from = t.from.filter((s) => !r.from.includes(s));
        return from.length === t.from.length ? [t] : from.length ? [{ ...t, from }] : [];
      });
    }
  }
  return [...added, ...rows];
}

const rowFor = <S extends string, A extends string, C>(rows: ReadonlyArray<RowInForce<S, A, C>>, current: S, action: A) =>
  rows.find((t) => t.action === action && t.from.includes(current));

/** Whether the table in force has a move for this action from this state (guards not evaluated). */
export function canTransition<S extends string, A extends string, C>(machine: Machine<S, A, C>, current: S, action: A, switches?: MachineSwitches): boolean {
  return rowFor(tableOf(machine, switches), current, action) !== undefined;
}

/** The next state, or 409 ACTION_NOT_ALLOWED naming the current state and the action. */
export function transition<S extends string, A extends string, C>(
  machine: Machine<S, A, C>,
  current: S,
  action: A,
  context: C,
  details: ErrorDetails = {},
  switches?: MachineSwitches,
): S {
  const move = rowFor(tableOf(machine, switches), current, action);
  if (!move) {
    // A deviation that took this move out of the table is what refused it.
    for (const { id, deviation } of switches?.machineDeviations(machine.name) ?? []) {
      if (deviation.remove?.some((r) => r.action === action && (r.from as readonly string[]).includes(current))) switches?.mark(id);
    }
    throw actionNotAllowed(`${action} is not allowed when the ${machine.name} is ${current}`, { currentState: current, action, ...details });
  }
  const next = nextState(machine, move, current, action, context, details);
  // A deviation's row decided this move differently from the machine's own: it altered the request (the
  // request log names it).
  if (move.deviation && ownOutcome(machine, current, action, context) !== next) switches?.mark(move.deviation);
  return next;
}

function nextState<S extends string, A extends string, C>(machine: Machine<S, A, C>, move: Transition<S, A, C>, current: S, action: A, context: C, details: ErrorDetails): S {
  const refusal = move.guard?.(context, current);
  if (refusal) throw actionNotAllowed(refusal, { currentState: current, action, ...details });
  if (typeof move.to === 'string') return move.to;
  // A computed state is checked like a declared one (defineMachine): a table bug is ours, never a stored state.
  const next = move.to(context, current);
  if (!machine.states.includes(next)) throw new Error(`${machine.name}: ${action} from ${current} computed the unknown state ${String(next)}`);
  return next;
}

/** What the machine's own table does with this move: the next state, or null when it refuses it. */
function ownOutcome<S extends string, A extends string, C>(machine: Machine<S, A, C>, current: S, action: A, context: C): S | null {
  const own = machine.transitions.find((t) => t.action === action && t.from.includes(current));
  if (!own) return null;
  try {
    return nextState(machine, own, current, action, context, {});
  } catch {
    return null;
  }
}
