// A lifecycle written from the spec as data: its states, its terminal states and its transitions
// { from, by, to }. The models of the suite (jobs, feed sessions, findings, claims) read their tables through
// these helpers; nothing here knows any server.

interface Transition<S extends string> {
  /** The source state; `null` is the spec's "(none)": the resource does not exist yet. */
  from: S | null;
  /** What moves it, in the spec's words (an endpoint, the worker, an operator). */
  by: string;
  to: S;
}

export interface MachineTable<S extends string> {
  name: string;
  /** The spec section the table is written from. */
  source: string;
  states: readonly S[];
  terminal: readonly S[];
  transitions: ReadonlyArray<Transition<S>>;
}

export const defineTable = <S extends string>(table: MachineTable<S>): MachineTable<S> => table;

export function isState<S extends string>(table: MachineTable<S>, value: unknown): value is S {
  return typeof value === 'string' && (table.states as readonly string[]).includes(value);
}

export function isTerminal<S extends string>(table: MachineTable<S>, state: S): boolean {
  return table.terminal.includes(state);
}

/** States a new resource can be created in (transitions from "(none)"). */
export function initialStates<S extends string>(table: MachineTable<S>): S[] {
  return [...new Set(table.transitions.filter((t) => t.from === null).map((t) => t.to))];
}

/** States one transition away from `from`. */
export function successors<S extends string>(table: MachineTable<S>, from: S | null): S[] {
  return [...new Set(table.transitions.filter((t) => t.from === from).map((t) => t.to))];
}

/** Whether `to` can be observed after `from`: the same state (zero steps) or a path of transitions. */
export function reachable<S extends string>(table: MachineTable<S>, from: S | null, to: S): boolean {
  if (from === to) return true;
  const seen = new Set<S | null>([from]);
  const queue: Array<S | null> = [from];
  while (queue.length) {
    for (const next of successors(table, queue.shift()!)) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}
