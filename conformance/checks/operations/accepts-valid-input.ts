// operations.<operationId>.accepts-valid-input: requests built from the contract's examples, the covering
// requests (covering-requests.ts: every enum value, bound edges, optional inputs present and left out,
// pattern draws, the spec's normalization rules) and values generated from its schemas with the seed are served: documented (the client checks every response against the
// contract), never 400 nor 5xx (404 for an unknown id, 409 for a state conflict, 403 and 429 are answers to
// valid input).
import type { Check } from '../../harness/check.js';
import type { LoadedContract } from '../../harness/contract.js';
import { coveringRequests } from './covering-requests.js';
import { discoverPath } from './discover-path.js';
import { generatedRequests } from './generated-requests.js';
import type { OperationInputs } from './inputs.js';
import { judgeValid } from './judge.js';
import { operationCheck } from './operation-check.js';
import { exampleRequest, keyExchangeRequest } from './requests.js';
import { send } from './send.js';

function generatedCount(runs: number): number {
  return Math.min(4, Math.max(1, Math.ceil(runs / 25)));
}

export function acceptsValidInput(contract: LoadedContract, inputs: OperationInputs): Check {
  return operationCheck(contract, inputs, 'accepts-valid-input', 'serves valid requests with documented answers', async (ctx, prepared, id) => {
    if (inputs.auth === 'integration-key') {
      // Spec 5.1: the exchange takes the key in x-api-key and no body.
      const spec = keyExchangeRequest();
      judgeValid(ctx, id, prepared, spec, await send(ctx, prepared, spec));
      return;
    }
    const requests = [exampleRequest(prepared)];
    const discovered = await discoverPath(ctx, contract, prepared);
    if (discovered) requests.unshift({ ...exampleRequest(prepared, discovered), label: `the contract example with an id the tenant has (${Object.values(discovered)[0]})` });
    const path = discovered ?? prepared.examplePath;
    requests.push(...coveringRequests(contract, prepared, path, ctx.seed), ...generatedRequests(contract, prepared, path, generatedCount(ctx.runs), ctx.seed));
    for (const spec of requests) {
      const exchange = await send(ctx, prepared, spec);
      if (!judgeValid(ctx, id, prepared, spec, exchange)) return;
    }
  });
}
