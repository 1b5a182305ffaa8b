// For simulator tests (issue 25): a lifecycle table tells the whole truth under every deviation. For each
// catalogue entry (defect or variant) that changes a machine's rows, with that entry on:
// - transition() answers exactly what the table in force (`tableOf`) says for every state and action;
// - the table in force differs from the machine's own in at least one move (a deviation that changes
//   nothing is a dead row);
// - every state it reaches is one of the machine's states;
// and with nothing on, transition() answers what the machine's own rows say.
import { createDefects } from '../kernel/defects.js';
import type { DeviationEntry } from '../kernel/deviations.js';
import { ApiError } from '../kernel/errors.js';
import { tableOf, transition, type Machine, type MachineSwitches } from '../kernel/machine.js';

/** One cell of a machine's grid: the next state, or `refused`. */
type Outcome = string;

function outcome<S extends string, A extends string, C>(machine: Machine<S, A, C>, state: S, action: A, context: C, switches?: MachineSwitches): Outcome {
  try {
    return transition(machine, state, action, context, {}, switches);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'ACTION_NOT_ALLOWED') return 'refused';
    throw error;
  }
}

/** What the rows say, read directly: the first row in force for the move, its guard and its target. */
function fromRows<S extends string, A extends string, C>(machine: Machine<S, A, C>, state: S, action: A, context: C, switches?: MachineSwitches): Outcome {
  const row = tableOf(machine, switches).find((t) => t.action === action && t.from.includes(state));
  if (!row || row.guard?.(context, state)) return 'refused';
  return typeof row.to === 'string' ? row.to : row.to(context, state);
}

export interface DeviationReport {
  /** The entries that change this machine's rows. */
  entries: string[];
  /** One line per cell where transition() and the table in force disagree, or per entry that changes nothing. */
  problems: string[];
}

/**
 * Checks `machine` under each entry of `catalogue` that deviates it, over every state and action, for each
 * context of `contexts` (the inputs its guards and computed targets read; `[undefined]` when none).
 */
export function checkMachineDeviations<S extends string, A extends string, C>(machine: Machine<S, A, C>, actions: readonly A[], catalogue: readonly DeviationEntry[], contexts: readonly C[]): DeviationReport {
  const entries = catalogue.filter((e) => e.machine?.some((d) => d.machine === machine.name));
  const problems: string[] = [];
  const grid = (switches?: MachineSwitches) => machine.states.flatMap((s) => actions.flatMap((a) => contexts.map((c, i) => ({ key: `${s} ${a}${contexts.length > 1 ? ` #${i}` : ''}`, told: outcome(machine, s, a, c, switches), rows: fromRows(machine, s, a, c, switches) }))));
  const own = grid();
  for (const cell of own) if (cell.told !== cell.rows) problems.push(`no deviation: ${cell.key} answers ${cell.told}, the rows say ${cell.rows}`);
  for (const entry of entries) {
    const switches = createDefects([entry.id], catalogue);
    const cells = grid(switches);
    for (const cell of cells) {
      if (cell.told !== cell.rows) problems.push(`${entry.id}: ${cell.key} answers ${cell.told}, the table in force says ${cell.rows}`);
      if (cell.told !== 'refused' && !machine.states.includes(cell.told as S)) problems.push(`${entry.id}: ${cell.key} reaches the unknown state ${cell.told}`);
    }
    if (cells.every((cell, i) => cell.told === own[i]!.told)) problems.push(`${entry.id}: changes no move of ${machine.name}`);
  }
  return { entries: entries.map((e) => e.id), problems };
}
