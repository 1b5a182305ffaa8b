// ship.finding-model (spec 3.3): model-based. fast-check draws sequences of finding actions on a tenant's
// findings; after each, the answer must be what the spec's table allows from the state the model holds:
// dispute and dismiss from OPEN, submit from DISPUTED, carrier-review from SUBMITTED, reopen from any
// terminal or in-flight state (not OPEN) give 200 with the next state; the same actions from other states
// give 409 ACTION_NOT_ALLOWED. Credit and reject have no source states in the spec: 200 with CREDITED /
// REJECTED or 409 are both allowed, and the model learns the state. A carrier-facing move refused with
// subcode carrier_blocked (spec 4.5 rule 4) is allowed too. Each sequence starts from the states read.
import fc from 'fast-check';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { AdminClient } from '../../harness/admin.js';
import type { ConformanceClient } from '../../harness/client.js';
import { ModelViolation, modelExpect, runModel } from '../../models/runner.js';
import { SPEC_MOVES } from './finding.table.js';
import { CONFIRMATION, FINDINGS_PATH, errorOf, findingAction, isProblem, listFindings, tenantWithFindings, type Finding, type FindingState } from './support.js';

interface Model {
  states: FindingState[];
}
interface Real {
  client: ConformanceClient;
  admin?: AdminClient;
  ids: string[];
}

const ACTIONS = ['dispute', 'dismiss', 'submit', 'carrier-review', 'credit', 'reject', 'reopen'] as const;
type Action = (typeof ACTIONS)[number];

class Act implements fc.AsyncCommand<Model, Real> {
  constructor(
    private readonly pick: number,
    private readonly action: Action,
  ) {}
  check() {
    return true;
  }
  async run(model: Model, real: Real) {
    const index = this.pick % real.ids.length;
    const from = model.states[index];
    const id = real.ids[index];
    const exchange = await findingAction(real.client, id, this.action, real.admin, this.action === 'credit' ? { amount: 1, confirmation: CONFIRMATION } : undefined);
    const status = exchange.response.status;
    if (status === 429) return;
    const body = exchange.response.body as Finding;
    const spec = SPEC_MOVES[this.action];
    if (status === 409) {
      modelExpect(errorOf(exchange).code === 'ACTION_NOT_ALLOWED', 'refusal-code', `${this} from ${from} answered 409 ${JSON.stringify(errorOf(exchange).code)}, not ACTION_NOT_ALLOWED (spec 3.3)`, exchange);
      const blocked = errorOf(exchange).details?.subcode === 'carrier_blocked';
      if (spec && spec.from.includes(from) && !blocked) throw new ModelViolation('allowed-move-refused', `${this} from ${from} was refused with 409; spec 3.3 moves it to ${spec.to}`, exchange);
      return;
    }
    modelExpect(status === 200, 'finding-action-answer', `${this} from ${from} answered ${status}, neither 200 nor 409 (spec 3.3, 4.5)`, exchange);
    if (spec) {
      modelExpect(spec.from.includes(from), 'illegal-move-accepted', `${this} from ${from} answered 200 (${JSON.stringify(body?.workflowStatus)}); spec 3.3 allows ${this.action} only from ${spec.from.join(', ')} (409 ACTION_NOT_ALLOWED otherwise)`, exchange);
      modelExpect(body?.workflowStatus === spec.to, 'move-reaches-state', `${this} from ${from} answered workflowStatus ${JSON.stringify(body?.workflowStatus)}, not ${spec.to} (spec 3.3)`, exchange);
    } else {
      const to = this.action === 'credit' ? 'CREDITED' : 'REJECTED';
      modelExpect(body?.workflowStatus === to, 'move-reaches-state', `${this} from ${from} answered 200 with workflowStatus ${JSON.stringify(body?.workflowStatus)}, not ${to} (spec 3.3)`, exchange);
    }
    model.states[index] = body.workflowStatus as FindingState;
  }
  toString() {
    return `${this.action}(#${this.pick})`;
  }
}

/** GET the finding list filtered by each model state: each finding is listed in the state the model holds. */
class Read implements fc.AsyncCommand<Model, Real> {
  check() {
    return true;
  }
  async run(model: Model, real: Real) {
    const listed = await listFindings(real.client, real.admin);
    if (isProblem(listed)) throw new ModelViolation(listed.rule, listed.message, listed.exchange);
    for (const [index, id] of real.ids.entries()) {
      const item = listed.findings.find((f) => f.id === id);
      modelExpect(item?.workflowStatus === model.states[index], 'state-persists', `GET ${FINDINGS_PATH} shows finding #${index} as ${JSON.stringify(item?.workflowStatus)} where its last move left it ${model.states[index]}`, listed.exchange);
    }
  }
  toString() {
    return 'Read';
  }
}

export const shipFindingModel = defineCheck({
  id: 'ship.finding-model',
  title: 'Findings move only along the workflow of spec 3.3 (model-based)',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship finding model', 3, 2);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const ids = setup.findings.slice(0, 3).map((f) => f.id);
    await runModel<Model, Real>({
      ctx,
      checkId: 'ship.finding-model',
      name: 'finding',
      commands: [
        fc.tuple(fc.nat(5), fc.constantFrom(...ACTIONS)).map(([pick, action]) => new Act(pick, action)),
        fc.tuple(fc.nat(5), fc.constantFrom<Action>('dispute', 'submit', 'reopen', 'dismiss')).map(([pick, action]) => new Act(pick, action)),
        fc.constant(null).map(() => new Read()),
      ],
      async initial(tools) {
        const client = setup.tenant.fresh ? tools.client.withApiKey(setup.tenant.client.apiKey) : tools.client;
        const listed = await listFindings(client, tools.admin);
        if (isProblem(listed)) throw new ModelViolation(listed.rule, listed.message, listed.exchange);
        const states = ids.map((id) => listed.findings.find((f) => f.id === id)?.workflowStatus as FindingState);
        return { model: { states }, real: { client, admin: tools.admin, ids } };
      },
      sequences: Math.max(ctx.runs, 40),
      maxCommands: 12,
      timeLimitMs: 45_000,
    });
  },
});
