// ship.submission-model (spec 3.4, 2.7, 7): model-based. Each sequence bundles two DISPUTED findings into a
// new DRAFT submission, then fast-check draws generate-packet, submit, acknowledge and confirm-credit (all
// credited, all failed, partial) calls and reads; every answer must follow the spec's table: 200
// `{ submission }` in the next state with the matching timestamp set, or 409 ACTION_NOT_ALLOWED from a
// non-source state (a repeat into the state reached included). A failure at packet generation or submission
// may end in FAILED (spec 3.4). Every record seen keeps packetUrl once READY, its submittedAt, and ordered
// stamps (models/submission.model.ts). The operator close (control API) is a command too: CLOSED is never
// left. Each sequence ends closed, which frees the findings for the next one (spec 4.5 rule 3).
import fc from 'fast-check';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { AdminClient } from '../../harness/admin.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { ModelViolation, modelExpect, runModel } from '../../models/runner.js';
import { judgeSubmissionRecord, learnRecord, nextState, STAMP, type CreditOutcome, type KnownRecord, type SubmissionState } from '../../models/submission.model.js';
import { CONFIRMATION, SUBMISSIONS_PATH, call, closeSubmission, errorOf, findingAction, isProblem, submissionAction, submissionOf, tenantWithFindings } from './support.js';

interface Model {
  status: SubmissionState;
  record: KnownRecord;
}
interface Real {
  client: ConformanceClient;
  admin?: AdminClient;
  id: string;
  findingIds: string[];
  /** The operator close (spec 3.4; the control API): its HTTP status. */
  close: () => Promise<number>;
}

/** Judges a record the server answered against what the model learnt, and learns it. */
function observeRecord(model: Model, record: Record<string, unknown>, exchange: Exchange, where: string) {
  const problems = judgeSubmissionRecord(model.record, record);
  if (problems.length) throw new ModelViolation(problems[0].rule, `${where}: ${problems.map((p) => p.message).join('; ')}`, exchange);
  model.record = learnRecord(model.record, record);
}

const STEPS = ['generate-packet', 'submit', 'acknowledge', 'confirm-credit'] as const;
type Step = (typeof STEPS)[number];
/**
 * spec 3.4 "any step: failure at packet generation, submission or credit confirmation -> FAILED": a server
 * may fail packet generation or submission on its own. A confirm-credit answer is judged by the table alone:
 * its results are the request's (amountsByFinding), so "failure at credit confirmation" is its all-failed row.
 */
const MAY_FAIL: readonly Step[] = ['generate-packet', 'submit'];

/** The step a client would take next from each state; `next` resolves to it when the command runs. */
const FORWARD: Partial<Record<SubmissionState, Step>> = { DRAFT: 'generate-packet', READY: 'submit' };

class Move implements fc.AsyncCommand<Model, Real> {
  private step: Step;
  constructor(
    private readonly planned: Step | 'next',
    private readonly outcome: CreditOutcome,
  ) {
    this.step = planned === 'next' ? 'generate-packet' : planned;
  }
  check() {
    return true;
  }
  private body(real: Real): unknown {
    if (this.step === 'submit' || this.step === 'acknowledge') return { externalReference: `FICT-CONF-${this.step}` };
    if (this.step !== 'confirm-credit') return undefined;
    const [a, b] = real.findingIds;
    const amounts = { all: { [a]: 2, [b]: 3 }, none: { [a]: 0, [b]: 0 }, partial: { [a]: 2, [b]: 0 } }[this.outcome];
    return { confirmation: CONFIRMATION, amountsByFinding: amounts };
  }
  async run(model: Model, real: Real) {
    const from = model.status;
    if (this.planned === 'next') this.step = FORWARD[from] ?? 'confirm-credit';
    const exchange = await submissionAction(real.client, real.id, this.step, real.admin, this.body(real));
    if (exchange.response.status === 429) return;
    const expected = nextState(from, this.step, this.outcome);
    if (expected === null) {
      modelExpect(exchange.response.status === 409 && errorOf(exchange).code === 'ACTION_NOT_ALLOWED', 'illegal-move-accepted', `${this} from ${from} answered ${exchange.response.status} ${JSON.stringify(submissionOf(exchange)?.status ?? errorOf(exchange).code)}; spec 3.4 has no such move (409 ACTION_NOT_ALLOWED, spec 7 also for a repeat into the state reached)`, exchange);
      const subcode = errorOf(exchange).details?.subcode;
      modelExpect(subcode === 'invalid_transition', 'refusal-subcode', `${this} from ${from} was refused with 409 ACTION_NOT_ALLOWED and details.subcode ${JSON.stringify(subcode)}, not invalid_transition (spec 4.5 rule 4)`, exchange);
      return;
    }
    modelExpect(exchange.response.status === 200, 'allowed-move-refused', `${this} from ${from} answered ${exchange.response.status} ${JSON.stringify(errorOf(exchange).code)}; spec 3.4 moves it to ${expected}`, exchange);
    const submission = submissionOf(exchange);
    modelExpect(submission !== undefined, 'submission-envelope', `${this} answered 200 without the { submission } envelope (spec 2.7)`, exchange);
    const reached = submission!.status as SubmissionState;
    const failedOk = reached === 'FAILED' && MAY_FAIL.includes(this.step);
    modelExpect(reached === expected || failedOk, 'move-reaches-state', `${this} from ${from} answered status ${JSON.stringify(reached)}, not ${expected} (spec 3.4)`, exchange);
    const stamp = STAMP[reached];
    if (stamp && reached !== from) modelExpect(typeof submission![stamp] === 'string', 'timestamp-set', `${this} moved the submission to ${reached} with ${stamp} ${JSON.stringify(submission![stamp])} (spec 2.7: set on the matching transition)`, exchange);
    if (reached === 'READY') modelExpect(typeof submission!.packetUrl === 'string', 'packet-url-set', `the submission is READY with packetUrl ${JSON.stringify(submission!.packetUrl)} (spec 2.7: set once READY)`, exchange);
    if (reached === 'FAILED') modelExpect(submission!.failureReason != null, 'failure-reason-set', `the submission became FAILED with failureReason ${JSON.stringify(submission!.failureReason)} (spec 2.7)`, exchange);
    observeRecord(model, submission!, exchange, `${this} from ${from}`);
    model.status = reached;
    // Spec 7: a repeat into the state reached is 409 ACTION_NOT_ALLOWED (the client's retry after a lost
    // answer must not move the submission twice): the same move again, where the table has none from there.
    if (nextState(reached, this.step, this.outcome) !== null) return;
    const again = await submissionAction(real.client, real.id, this.step, real.admin, this.body(real));
    if (again.response.status === 429) return;
    modelExpect(again.response.status === 409 && errorOf(again).code === 'ACTION_NOT_ALLOWED', 'repeat-refused', `${this} repeated on the submission it just moved to ${reached} answered ${again.response.status} ${JSON.stringify(submissionOf(again)?.status ?? errorOf(again).code)}, not 409 ACTION_NOT_ALLOWED (spec 7: a repeat into the state reached)`, again);
  }
  toString() {
    const step = this.step === 'confirm-credit' ? `confirm-credit(${this.outcome})` : this.step;
    // `next` resolves from the state at run time, which shrinking changes: printed unresolved.
    return this.planned === 'next' ? `next(${this.outcome})` : step;
  }
}

class Read implements fc.AsyncCommand<Model, Real> {
  check() {
    return true;
  }
  async run(model: Model, real: Real) {
    const exchange = await call(real.client, 'GET', `${SUBMISSIONS_PATH}/${real.id}`, {}, real.admin);
    if (exchange.response.status === 429) return;
    modelExpect(exchange.response.status === 200 && submissionOf(exchange)?.status === model.status, 'state-persists', `GET ${SUBMISSIONS_PATH}/${real.id} answered ${exchange.response.status} ${JSON.stringify(submissionOf(exchange)?.status)} where the last move left ${model.status} (spec 2.7: { submission })`, exchange);
    observeRecord(model, submissionOf(exchange)!, exchange, 'Read');
  }
  toString() {
    return 'Read';
  }
}

/** The operator close (spec 3.4 "(any) -> CLOSED; terminal; never reopened"): every move after it is 409. */
class Close implements fc.AsyncCommand<Model, Real> {
  check(model: Readonly<Model>) {
    return model.status !== 'CLOSED';
  }
  async run(model: Model, real: Real) {
    const status = await real.close();
    modelExpect(status === 200, 'operator-close', `the control API's close of a ${model.status} submission answered ${status}, not 200 (spec 3.4: operator close from any state)`);
    model.status = nextState(model.status, 'operator close')!;
  }
  toString() {
    return 'Close';
  }
}

export const shipSubmissionModel = defineCheck({
  id: 'ship.submission-model',
  title: 'Claim submissions move only along the lifecycle of spec 3.4, with the confirm-credit outcomes and repeat rules (model-based)',
  area: 'ship',
  needs: ['writes', 'admin'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship submission model', 3, 2);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const tenantId = setup.tenant.tenantId;
    if (!tenantId) ctx.skip('the operator close needs a tenant of the control API');
    const pair = setup.findings.filter((f) => f.workflowStatus === 'OPEN').slice(0, 2);
    if (pair.length < 2) ctx.skip('fewer than two OPEN findings');
    const carrier = String(pair[0].carrier ?? 'FEDEX');
    for (const f of pair) await findingAction(setup.tenant.client, f.id, 'dispute', ctx.admin);
    await runModel<Model, Real>({
      ctx,
      checkId: 'ship.submission-model',
      name: 'claim-submission',
      commands: [
        fc.tuple(fc.constantFrom(...STEPS), fc.constantFrom<CreditOutcome>('all', 'none', 'partial')).map(([step, outcome]) => new Move(step, outcome)),
        // The forward path (then confirm-credit) more often than a random step, so sequences reach the confirm-credit table.
        fc.constantFrom<CreditOutcome>('none', 'partial', 'partial', 'all').map((outcome) => new Move('next', outcome)),
        fc.constantFrom<CreditOutcome>('none', 'partial', 'partial', 'all').map((outcome) => new Move('next', outcome)),
        fc.constantFrom<CreditOutcome>('none', 'partial', 'partial', 'all').map((outcome) => new Move('next', outcome)),
        fc.constantFrom<CreditOutcome>('all', 'none', 'partial').map((outcome) => new Move('confirm-credit', outcome)),
        fc.constantFrom<CreditOutcome>('none', 'partial').map((outcome) => new Move('confirm-credit', outcome)),
        fc.constant(null).map(() => new Read()),
        fc.constant(null).map(() => new Close()),
      ],
      async initial(tools) {
        const client = tools.client.withApiKey(setup.tenant.client.apiKey);
        const create = () => call(client, 'POST', SUBMISSIONS_PATH, { json: { carrier, findingIds: pair.map((f) => f.id) } }, tools.admin);
        let created = await create();
        // A sequence that broke a rule stopped before its close: close what still holds the findings (rule 3).
        const links = errorOf(created).details?.duplicateLinks;
        if (created.response.status === 409 && Array.isArray(links)) {
          for (const link of links) await closeSubmission(ctx, tenantId!, String((link as { submissionId?: unknown }).submissionId));
          created = await create();
        }
        const submission = submissionOf(created);
        if (created.response.status !== 201 || submission?.status !== 'DRAFT') throw new ModelViolation('submission-created', `POST ${SUBMISSIONS_PATH} with two DISPUTED findings answered ${created.response.status} ${JSON.stringify(submission?.status)}, not 201 DRAFT (spec 3.4)`, created);
        const id = String(submission.id);
        return { model: { status: 'DRAFT', record: learnRecord({}, submission) }, real: { client, admin: tools.admin, id, findingIds: pair.map((f) => f.id), close: () => closeSubmission(ctx, tenantId!, id) } };
      },
      async finish(model, real) {
        if (model.status !== 'CLOSED') await closeSubmission(ctx, tenantId!, real.id);
      },
      // At least 60 sequences whatever the run count: the confirm-credit rows sit four moves deep.
      sequences: Math.max(ctx.runs, 60),
      maxCommands: 10,
      timeLimitMs: 45_000,
    });
  },
});
