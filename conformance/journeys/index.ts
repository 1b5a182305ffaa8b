// The journeys (spec 1: the three canonical workflows), each a scripted walk of its workflow with every
// step's response checked and the invariants across operations held along the way. One check each, so
// `--only journeys.b` runs one walk alone.
//
//   steps.ts             numbered, named steps: failures say where the walk broke
//   support.ts           the journey's tenant, uploads through the contract, waiting a job out
//   journey-a.ts         journeys.a   catalog upload, screening, results, summary, evidence, report
//   journey-b.ts         journeys.b   feed upload, normalization, preview, review, apply, screening
//   journey-c.ts         journeys.c   uploads, audit, findings, dispute, claim, packet, submit, credit
//   *.invariants.ts      the cross-operation invariants of each workflow, as pure functions
import type { Check } from '../harness/check.js';
import type { LoadedContract } from '../harness/contract.js';
import { journeyA } from './journey-a.js';
import { journeyB } from './journey-b.js';
import { journeyC } from './journey-c.js';

export { journeyA };

/** Every journey, in the order they run. */
export const journeyChecks: Check[] = [journeyA, journeyB, journeyC];

/**
 * The journeys a contract has the operations for: A in every version (SIMA and uploads, spec 9.1); B with the
 * trade feed sessions (`uploadTradeFeed`, spec 4.4); C with the finding workflow (`listFindings`, spec 4.5).
 */
export function journeysFor(contract: LoadedContract): Check[] {
  return [journeyA, ...(contract.operation('uploadTradeFeed') ? [journeyB] : []), ...(contract.operation('listFindings') ? [journeyC] : [])];
}
