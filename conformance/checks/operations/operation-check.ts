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
export function operationCheck(contract: LoadedContract, inputs: OperationInputs, name: string, what: string, run: (ctx: CheckContext, prepared: Prepared, id: string) => Promise<void>): Check {
  const { op } = inputs;
  const id = `operations.${op.operationId}.${name}`;
  return defineCheck({
    id,
    title: `${op.method.toUpperCase()} ${op.path} (${op.operationId}) ${what}`,
    area: 'operations',
    needs: isRead(op) || inputs.auth === 'integration-key' ? [] : ['writes'],
    async run(ctx) {
      await run(ctx, prepare(contract, inputs, ctx.seed), id);
    },
  });
}
