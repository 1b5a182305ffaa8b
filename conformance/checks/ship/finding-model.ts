// ship.finding-model (spec 3.3): model-based. fast-check draws sequences of finding actions on a tenant's
// findings; each answer is judged by models/finding.model.ts against the state the model holds: the moves
// the spec's table gives answer 200 in their next state, other moves 409 ACTION_NOT_ALLOWED; credit and
// reject (source states not shown) may answer either, but never leave another terminal state; a
// carrier-facing move refused with subcode carrier_blocked (spec 4.5 rule 4) is allowed. Reads check the
// state persists; sweeps try every move the table refuses from each finding's current state. Each sequence
// starts from the states read; a failure prints seed, path and replay command.
import fc from 'fast-check';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { AdminClient } from '../../harness/admin.js';
import type { ConformanceClient } from '../../harness/client.js';
import { FINDING_ACTIONS, judgeFindingAnswer, refusedFrom, type FindingAction, type FindingState } from '../../models/finding.model.js';
import { ModelViolation, modelExpect, runModel } from '../../models/runner.js';
import { CONFIRMATION, FINDINGS_PATH, errorOf, findingAction, isProblem, listFindings, tenantWithFindings, type Finding } from './support.js';

export interface Model {
  states: FindingState[];
}
export interface Real {
  client: ConformanceClient;
  admin?: AdminClient;
  ids: string[];
}

type Action = FindingAction;

/**
 * The action `onward` resolves to: the next step of the dispute path, a carrier answer once SUBMITTED or in
 * CARRIER_REVIEW, and from a terminal state the other resolution (so sequences reach the rows the spec
 * leaves open, and the "terminal is left only by reopen" rule, in a few moves).
 */
const ONWARD: Record<FindingState, Action> = { OPEN: 'dispute', DISPUTED: 'submit', SUBMITTED: 'carrier-review', CARRIER_REVIEW: 'credit', CREDITED: 'reject', REJECTED: 'credit', DISMISSED: 'reject' };

class Act implements fc.AsyncCommand<Model, Real> {
  private action: Action;
  constructor(
    private readonly pick: number,
    private readonly planned: Action | 'onward',
  ) {
    this.action = planned === 'onward' ? 'dispute' : planned;
  }
  check() {
    return true;
  }
  async run(model: Model, real: Real) {
    const index = this.pick % real.ids.length;
    const from = model.states[index];
    if (this.planned === 'onward') this.action = ONWARD[from];
    const exchange = await findingAction(real.client, real.ids[index], this.action, real.admin, this.action === 'credit' ? { amount: 1, confirmation: CONFIRMATION } : undefined);
    if (exchange.response.status === 429) return;
    const error = errorOf(exchange);
    const verdict = judgeFindingAnswer(this.action, from, { status: exchange.response.status, workflowStatus: (exchange.response.body as Finding | null)?.workflowStatus, code: error.code, subcode: error.details?.subcode });
    if (verdict.problem) throw new ModelViolation(verdict.problem.rule, `finding #${index}: ${verdict.problem.message}`, exchange);
    model.states[index] = verdict.state;
  }
  toString() {
    // `onward` resolves from the state at run time, which shrinking changes: printed unresolved.
    return `${this.planned}(#${this.pick})`;
  }
}

/**
 * Every action the spec's table refuses from each finding's current state (models/finding.model.ts
 * refusedFrom), judged like any action: a random action alone reaches an illegal move from a given state
 * by chance, this tries them all from whatever states the sequence reached. A correct server answers 409
 * to each, so the states stay as they are.
 */
class Sweep implements fc.AsyncCommand<Model, Real> {
  check() {
    return true;
  }
  async run(model: Model, real: Real) {
    for (const [index, id] of real.ids.entries()) {
      const from = model.states[index];
      for (const action of refusedFrom(from)) {
        const exchange = await findingAction(real.client, id, action, real.admin, action === 'credit' ? { amount: 1, confirmation: CONFIRMATION } : undefined);
        if (exchange.response.status === 429) continue;
        const error = errorOf(exchange);
        const verdict = judgeFindingAnswer(action, from, { status: exchange.response.status, workflowStatus: (exchange.response.body as Finding | null)?.workflowStatus, code: error.code, subcode: error.details?.subcode });
        if (verdict.problem) throw new ModelViolation(verdict.problem.rule, `finding #${index}: ${verdict.problem.message}`, exchange);
      }
    }
  }
  toString() {
    return 'Sweep';
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

/** The commands of a sequence: any action, the moves of the table, the onward path, reads, sweeps of refused moves. */
export const findingCommands = (): Array<fc.Arbitrary<fc.AsyncCommand<Model, Real>>> => [
  fc.tuple(fc.nat(5), fc.constantFrom(...FINDING_ACTIONS)).map(([pick, action]) => new Act(pick, action)),
  fc.tuple(fc.nat(5), fc.constantFrom<Action>('dispute', 'submit', 'reopen', 'dismiss')).map(([pick, action]) => new Act(pick, action)),
  fc.nat(5).map((pick) => new Act(pick, 'onward')),
  fc.nat(5).map((pick) => new Act(pick, 'onward')),
  fc.constant(null).map(() => new Read()),
  fc.constant(null).map(() => new Sweep()),
];

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
      commands: findingCommands(),
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
