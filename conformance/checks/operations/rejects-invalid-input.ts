// operations.<operationId>.rejects-invalid-input: requests with ONE invalid parameter or body field, all else
// valid, are refused with 400 INVALID_REQUEST, and `details.field` names the field (spec 7: "field named in
// details.field where applicable").
import type { Check } from '../../harness/check.js';
import type { LoadedContract } from '../../harness/contract.js';
import type { OperationInputs } from './inputs.js';
import { describeAnswer, errorOf, judgeValid, propertyExtra } from './judge.js';
import { constraintCount, negativeCases, pickCases } from './negative-cases.js';
import { operationCheck } from './operation-check.js';
import { exampleRequest, keyExchangeRequest } from './requests.js';
import { send } from './send.js';

export function rejectsInvalidInput(contract: LoadedContract, inputs: OperationInputs): Check {
  const { op } = inputs;
  return operationCheck(contract, inputs, 'rejects-invalid-input', 'refuses invalid input with 400 INVALID_REQUEST naming the field', async (ctx, prepared, id) => {
    if (inputs.auth === 'integration-key') {
      // Spec 4.1, 7: the exchange without a key (an empty x-api-key) is 400 MISSING_API_KEY.
      const valid = keyExchangeRequest();
      if (!judgeValid(ctx, id, prepared, valid, await send(ctx, prepared, valid))) return;
      const exchange = await ctx.client.call('POST', op.path, { auth: { apiKey: '' } });
      // A 429 here was waited out by the client, and reported by it when it persisted (harness/transport.ts).
      if (exchange.response.status === 429) return;
      const { code } = errorOf(exchange);
      if (ctx.expect(exchange.response.status === 400, 'invalid-input-rejected', `${op.operationId}: an empty x-api-key was answered ${describeAnswer(exchange)}, not 400 MISSING_API_KEY (spec 4.1, 7)`, exchange)) {
        ctx.expect(code === 'MISSING_API_KEY', 'error-code', `${op.operationId}: an empty x-api-key was answered 400 with code ${String(code)}, not MISSING_API_KEY (spec 7)`, exchange);
      }
      return;
    }
    // A plain valid request first: the refusals below mean something only next to a request that is
    // served, and an operation the server has not built fails here (its answer is undocumented).
    const baseline = exampleRequest(prepared);
    if (!judgeValid(ctx, id, prepared, baseline, await send(ctx, prepared, baseline))) return;
    const normative = ctx.options.profile === 'simulator';
    const all = negativeCases(contract, prepared, ctx.seed).filter((c) => normative || !c.spec.sandboxDependent);
    const hasInput = inputs.params.length > 0 || inputs.body !== undefined;
    if (!all.length) ctx.skip(hasInput ? 'none of the operation\'s inputs has a rule a request can break (outside the sandbox-defined shapes)' : 'the operation takes no input');
    // Every constraint the operation's inputs have (input and mutation kind) once, none twice (issue 26 item 6).
    for (const item of pickCases(all, constraintCount(all), ctx.seed)) {
      const exchange = await send(ctx, prepared, item.spec);
      if (exchange.response.status === 429) continue;
      const extra = propertyExtra(ctx, id, item.spec);
      const { code, details } = errorOf(exchange);
      if (exchange.response.status !== 400 || code !== 'INVALID_REQUEST') {
        ctx.fail('invalid-input-rejected', `${op.operationId}: ${item.spec.label} was answered ${describeAnswer(exchange)}, not 400 INVALID_REQUEST (spec 7)`, exchange, extra);
        continue;
      }
      if (!item.variant.fields.length) continue;
      const field = details?.field;
      const named = typeof field === 'string' && item.variant.fields.some((name) => field.toLowerCase().includes(name.toLowerCase()));
      if (!named) {
        ctx.fail('error-names-field', `${op.operationId}: ${item.spec.label} was refused, but details.field is ${JSON.stringify(field)}, not naming ${item.variant.fields.join(' or ')} (spec 7)`, exchange, extra);
      }
    }
    // Refused requests create nothing, and the one valid request creates the asking tenant's own resource:
    // the check may run as the second tenant beside the others (harness/check.ts lane).
  }, 'second-tenant');
}
