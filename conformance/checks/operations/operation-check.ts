// The frame both checks of an operation share: the id `operations.<operationId>.<name>`, the title naming
// the route, the needs, and the example prepared with the run's seed.
import { defineCheck, type Check, type CheckContext } from '../../harness/check.js';
import type { LoadedContract } from '../../harness/contract.js';
import { isRead, type OperationInputs } from './inputs.js';
import { prepare, type Prepared } from './requests.js';

/**
 * One check of an operation, titled `<METHOD> <path> (<operationId>) <what>`. Reads and the key exchange
 * need nothing; every other operation writes. `run` gets the example prepared with the run's seed.
 */
export function operationCheck(
  contract: LoadedContract,
  inputs: OperationInputs,
  name: string,
  what: string,
  run: (ctx: CheckContext, prepared: Prepared, id: string) => Promise<void>,
  lane?: Check['lane'],
): Check {
  const { op } = inputs;
  const id = `operations.${op.operationId}.${name}`;
  return defineCheck({
    id,
    title: `${op.method.toUpperCase()} ${op.path} (${op.operationId}) ${what}`,
    area: 'operations',
    needs: isRead(op) || inputs.auth === 'integration-key' ? [] : ['writes'],
    ...(lane && independentOfTenant(inputs) ? { lane } : {}),
    async run(ctx) {
      await run(tenantAgnostic(ctx, inputs), prepare(contract, inputs, ctx.seed), id);
    },
  });
}

/**
 * Both checks of an operation judge each answer on its own (valid input served, invalid input refused), and
 * on a route that names no resource of the tenant (no path parameter) the answer does not depend on which
 * tenant asks. So when the vendor gives a second tenant's key (--second-api-key), each request goes out as
 * whichever of the two keys its rate bucket serves sooner, once the run has learned the bucket is counted per
 * key (client.ts spreadOver): the same requests and assertions within the limits of two keys (issue 26).
 */
export function tenantAgnostic(ctx: CheckContext, inputs: OperationInputs): CheckContext {
  if (!ctx.options.secondApiKey || !ctx.second || !independentOfTenant(inputs)) return ctx;
  return { ...ctx, client: ctx.client.spreadOver(ctx.second) };
}

/** A route naming no resource of the tenant, reached with a bearer token (not the key exchange itself). */
const independentOfTenant = (inputs: OperationInputs) => inputs.auth !== 'integration-key' && !inputs.params.some((param) => param.in === 'path');
