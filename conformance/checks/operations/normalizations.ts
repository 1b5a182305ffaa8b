// operations.normalizations: every normalization rule the spec states (normalization-rules.ts) holds on
// every operation that takes its input: the values the rule says a server normalizes (a padded or
// lower-case screeningAuthority, a blank one, an omitted default) are served, never refused with 400.
// Only acceptance is asserted: the spec does not say where the normalized value shows in an answer.
import { defineCheck, type Check } from '../../harness/check.js';
import type { LoadedContract } from '../../harness/contract.js';
import { bodyWith, inputNames } from './covering-requests.js';
import { ABSENT } from './covering-values.js';
import { discoverPath } from './discover-path.js';
import { operationInputs } from './inputs.js';
import { tenantAgnostic } from './operation-check.js';
import { describeAnswer, judgeValid, propertyExtra } from './judge.js';
import { rulesFor, type NormalizationRule } from './normalization-rules.js';
import { exampleRequest, prepare, setBody, type Prepared, type RequestSpec } from './requests.js';
import { send } from './send.js';

const ID = 'operations.normalizations';

/** The example request with the rule's input set to `value` (undefined: left out), or undefined when the
 *  request cannot carry it (an empty text in a form is a left-out field). */
function requestFor(contract: LoadedContract, prepared: Prepared, path: Record<string, string>, rule: NormalizationRule, value: string | undefined, seed: number): RequestSpec | undefined {
  const spec = exampleRequest(prepared, path);
  spec.label = `${rule.id}: ${rule.input.in} ${rule.input.name} ${value === undefined ? 'left out' : `= ${JSON.stringify(value)}`}`;
  if (rule.input.in === 'query') {
    if (value === undefined) delete spec.query[rule.input.name];
    else spec.query[rule.input.name] = value;
    return spec;
  }
  const body = bodyWith(contract, prepared, new Map([[rule.input.name, value === undefined ? ABSENT : value]]), seed);
  if (!body) return undefined;
  spec.json = undefined;
  spec.form = undefined;
  setBody(prepared, spec, body);
  if (prepared.inputs.body?.multipart && !spec.form) return undefined;
  return spec;
}

export function normalizationsCheck(contract: LoadedContract): Check {
  return defineCheck({
    id: ID,
    title: 'Inputs the spec says are normalized (padded, lower-case or blank screeningAuthority, omitted defaults) are served',
    area: 'operations',
    needs: ['writes'],
    async run(checkCtx) {
      let sent = 0;
      for (const op of contract.operations) {
        const inputs = operationInputs(contract.doc, op);
        if (inputs.auth !== 'bearer') continue;
        // Each request is judged on its own answer: on a route naming no resource, any tenant's key will do.
        const ctx = tenantAgnostic(checkCtx, inputs);
        const prepared = prepare(contract, inputs, ctx.seed);
        const rules = rulesFor(inputNames(prepared)).filter((rule) => rule.values.length > 0);
        if (!rules.length) continue;
        const path = (await discoverPath(ctx, contract, prepared)) ?? prepared.examplePath;
        for (const rule of rules) {
          for (const value of rule.values) {
            const spec = requestFor(contract, prepared, path, rule, value, ctx.seed);
            if (!spec) continue;
            const exchange = await send(ctx, prepared, spec);
            sent++;
            if (exchange.response.status === 400) {
              ctx.fail('normalization-accepted', `${op.operationId}: ${rule.statement} (${rule.section}), but ${spec.label} was answered ${describeAnswer(exchange)}`, exchange, propertyExtra(ctx, ID, spec));
            } else if (!judgeValid(ctx, ID, prepared, spec, exchange)) break;
          }
        }
      }
      if (sent === 0) checkCtx.skip('no operation of the contract takes an input a normalization rule names');
    },
  });
}
