// Lifecycles as data: a table of transitions per machine, read by one transition() that refuses every
// move the table does not allow with the spec's 409 ACTION_NOT_ALLOWED.
// transition() only computes the next state; each move is recorded when the record holding the state is
// written (transition-log.ts: the append-only log behind GET /_sim/transitions), so a refused move or a
// compare-and-set that loses a race records nothing.
import { actionNotAllowed, type ErrorDetails } from './errors.js';

export interface Transition<S extends string, A extends string, C> {
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

export function defineMachine<S extends string, A extends string, C = unknown>(machine: Machine<S, A, C>): Machine<S, A, C> {
  for (const t of machine.transitions) {
    for (const state of [...t.from, ...(typeof t.to === 'string' ? [t.to] : [])]) {
      if (!machine.states.includes(state)) throw new Error(`${machine.name}: unknown state ${state} in ${t.action}`);
    }
  }
  return machine;
}

/** Whether the table has a move for this action from this state (guards not evaluated). */
export function canTransition<S extends string, A extends string, C>(machine: Machine<S, A, C>, current: S, action: A): boolean {
  return machine.transitions.some((t) => t.action === action && t.from.includes(current));
}

/** The next state, or 409 ACTION_NOT_ALLOWED naming the current state and the action. */
export function transition<S extends string, A extends string, C>(
  machine: Machine<S, A, C>,
  current: S,
  action: A,
  context: C,
  details: ErrorDetails = {},
): S {
  const move = machine.transitions.find((t) => t.action === action && t.from.includes(current));
  if (!move) {
    throw actionNotAllowed(`${action} is not allowed when the ${machine.name} is ${current}`, { currentState: current, action, ...details });
  }
  const refusal = move.guard?.(context, current);
  if (refusal) throw actionNotAllowed(refusal, { currentState: current, action, ...details });
  if (typeof move.to === 'string') return move.to;
  // A computed state is checked like a declared one (defineMachine): a table bug is ours, never a stored state.
  const next = move.to(context, current);
  if (!machine.states.includes(next)) throw new Error(`${machine.name}: ${action} from ${current} computed the unknown state ${String(next)}`);
  return next;
}
