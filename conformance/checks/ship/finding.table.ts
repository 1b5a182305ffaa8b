// The finding workflow of spec 3.3 as data, for the model: the moves the spec gives with their source
// states. Credit and reject have no source states in the spec ("not shown"): not listed, judged loosely.
// Reopen comes from "terminal or in-flight states": every state but OPEN.
import { defineTable } from '../../models/machine-table.js';
import type { FindingState } from './support.js';

export const findingTable = defineTable<FindingState>({
  name: 'finding',
  source: 'spec 3.3',
  states: ['OPEN', 'DISPUTED', 'SUBMITTED', 'CARRIER_REVIEW', 'CREDITED', 'REJECTED', 'DISMISSED'],
  terminal: ['CREDITED', 'REJECTED', 'DISMISSED'],
  transitions: [
    { from: 'OPEN', by: 'POST dispute', to: 'DISPUTED' },
    { from: 'OPEN', by: 'POST dismiss', to: 'DISMISSED' },
    { from: 'DISPUTED', by: 'POST submit', to: 'SUBMITTED' },
    { from: 'SUBMITTED', by: 'POST carrier-review', to: 'CARRIER_REVIEW' },
    ...(['DISPUTED', 'SUBMITTED', 'CARRIER_REVIEW', 'CREDITED', 'REJECTED', 'DISMISSED'] as const).map((from) => ({ from, by: 'POST reopen', to: 'OPEN' as const })),
  ],
});

/** action -> the source states and the next state the spec gives. */
export const SPEC_MOVES: Partial<Record<string, { from: FindingState[]; to: FindingState }>> = Object.fromEntries(
  ['dispute', 'dismiss', 'submit', 'carrier-review', 'reopen'].map((action) => {
    const moves = findingTable.transitions.filter((t) => t.by === `POST ${action}`);
    return [action, { from: moves.map((t) => t.from!), to: moves[0].to }];
  }),
);
