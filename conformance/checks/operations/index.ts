// Per-operation checks, two for every operation of the selected contract (spec 4, 7; section 8 for bounds):
//   operations.<operationId>.accepts-valid-input   requests built from the contract's examples and from
//     values generated from its schemas are served: documented (the client checks every response against
//     the contract), never 400 nor 5xx (404 for an unknown id, 409 for a state conflict, 403 and 429 are
//     answers to valid input).
//   operations.<operationId>.rejects-invalid-input  requests with ONE invalid parameter or body field, all else
//     valid, are refused with 400 INVALID_REQUEST, and `details.field` names the field (spec 7: "field named
//     in details.field where applicable").
//   operations.normalizations  the spec's normalization rules (normalization-rules.ts) hold on every
//     operation taking their input: padded / lower-case / blank screeningAuthority and omitted defaults served.
// Operations the server has not built are not skipped: their answer (e.g. 501) is undocumented, so both of
// their checks fail through the client's response conformance.
//
//   inputs.ts                what an operation takes (parameters, body, authentication)
//   operation-check.ts       the frame both checks share (id, title, needs, the prepared example)
//   requests.ts              the prepared example, requests, URLs, forms, reading text values back
//   covering-values.ts       the values covering one input (enum values, bound edges, pattern draws, left out)
//   covering-requests.ts     valid requests covering the contract deterministically (value-policy.ts: what may vary)
//   generated-requests.ts    valid requests varied by the seed
//   normalization-rules.ts   the spec's normalization rules; normalizations.ts their check
//   coverage*.ts             the input coverage of a run (what the requests sent exercised), for the reports
//   negative-cases.ts        invalid requests, one broken input each, and the few sent
//   send.ts, judge.ts        sending (429s waited out by rate-limit-retry.ts) and judging answers
//   discover-path.ts         real ids for reads
import type { Check } from '../../harness/check.js';
import type { LoadedContract } from '../../harness/contract.js';
import { acceptsValidInput } from './accepts-valid-input.js';
import { operationInputs } from './inputs.js';
import { normalizationsCheck } from './normalizations.js';
import { rejectsInvalidInput } from './rejects-invalid-input.js';


/** Both checks for every operation of the contract, in the contract's order, then the normalization rules. */
export function operationChecks(contract: LoadedContract): Check[] {
  const perOperation = contract.operations.flatMap((op) => {
    const inputs = operationInputs(contract.doc, op);
    return [acceptsValidInput(contract, inputs), rejectsInvalidInput(contract, inputs)];
  });
  return [...perOperation, normalizationsCheck(contract)];
}
