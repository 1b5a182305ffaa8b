// Jobs (spec 2.2, 3.1, 4.1): the job lifecycle as a model-based property, and the job list's filters.
import fc from 'fast-check';
import type { AdminClient } from '../harness/admin.js';
import { defineCheck, type Check, type CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import type { Exchange } from '../harness/types.js';
import { isJobStatus, isTerminalStatus, jobLifecycle, judgeJob, learn, type KnownJob } from '../models/job.model.js';
import { ModelViolation, modelExpect, runModel, type ModelTools } from '../models/runner.js';
import { batchBody, enqueue, isRateLimited, receiptJobId, RUN_NONCE, settleJobs, SKU_POOL, writeTenant } from './jobs-support.js';

// ---------------------------------------------------------------------------------------------------------
// jobs.lifecycle-model

/** The jobs this sequence created, as last observed. */
interface JobsModel {
  jobs: KnownJob[];
  /** A tenant of this sequence alone: the job list holds exactly the model's jobs. */
  exact: boolean;
  /** The virtual clock can be moved (control API). */
  clock: boolean;
}

interface JobsReal {
  client: ConformanceClient;
  admin?: AdminClient;
  keyPrefix: string;
  keys: number;
}

/** Judges one observation of a model job and records it; throws the first broken rule with the exchange. */
function observe(model: JobsModel, index: number, observed: Record<string, unknown>, exchange: Exchange, where: string) {
  const known = model.jobs[index];
  const problems = judgeJob(known, observed);
  if (problems.length) throw new ModelViolation(problems[0].rule, `${where}: ${problems.map((p) => p.message).join('; ')}`, exchange);
  model.jobs[index] = learn(known, observed);
}

async function readJob(real: JobsReal, model: JobsModel, index: number, where: string) {
  const exchange = await real.client.call('GET', `/api/jobs/${model.jobs[index].id}`);
  if (isRateLimited(exchange)) return; // spec 8.1: a throttled read observes nothing
  modelExpect(exchange.response.status === 200, 'job-readable', `${where}: GET /api/jobs/${model.jobs[index].id} answered ${exchange.response.status}, not 200 (spec 4.1)`, exchange);
  observe(model, index, exchange.response.body as Record<string, unknown>, exchange, where);
}

/** POST /api/sima/batch: 202 with a receipt (spec 2.3, 3.1), and the job is then readable. */
class Enqueue implements fc.AsyncCommand<JobsModel, JobsReal> {
  constructor(
    readonly skus: string[],
    readonly withKey: boolean,
  ) {}
  check() {
    return true;
  }
  async run(model: JobsModel, real: JobsReal) {
    const key = this.withKey ? `${real.keyPrefix}-${++real.keys}` : undefined;
    const exchange = await enqueue(real.client, batchBody(this.skus), key);
    if (isRateLimited(exchange)) return; // spec 8.2: at a cap nothing is enqueued
    modelExpect(exchange.response.status === 202, 'enqueue-accepted', `POST /api/sima/batch answered ${exchange.response.status}, not 202 (spec 3.1)`, exchange);
    const receipt = exchange.response.body as { jobId?: unknown; status?: unknown; replayed?: unknown };
    modelExpect(typeof receipt.jobId === 'string', 'enqueue-receipt', 'the 202 receipt has no jobId (spec 2.3)', exchange);
    modelExpect(isJobStatus(receipt.status), 'enqueue-receipt', `the receipt status ${JSON.stringify(receipt.status)} is not a job status (spec 2.3)`, exchange);
    modelExpect(receipt.replayed === false, 'enqueue-receipt', `a new job's receipt says replayed: ${JSON.stringify(receipt.replayed)} (spec 2.3: true only for an existing job)`, exchange);
    modelExpect(!model.jobs.some((job) => job.id === receipt.jobId), 'enqueue-new-job', `the receipt names job ${receipt.jobId}, already created earlier in this sequence`, exchange);
    model.jobs.push({ id: receipt.jobId, status: receipt.status });
    await readJob(real, model, model.jobs.length - 1, `the job just enqueued`);
  }
  toString() {
    return `Enqueue(${JSON.stringify(this.skus)}${this.withKey ? ', Idempotency-Key' : ''})`;
  }
}

/** GET /api/jobs/{id} of a job of the sequence. */
class Observe implements fc.AsyncCommand<JobsModel, JobsReal> {
  private index?: number;
  constructor(readonly pick: number) {}
  check(model: Readonly<JobsModel>) {
    return model.jobs.length > 0;
  }
  async run(model: JobsModel, real: JobsReal) {
    this.index = this.pick % model.jobs.length;
    await readJob(real, model, this.index, `job #${this.index + 1} of the sequence`);
  }
  toString() {
    return `Observe(job #${(this.index ?? this.pick) + 1})`;
  }
}

/** Simulator profile: moves the virtual clock so jobs move (their delays are sandbox-defined). */
class AdvanceClock implements fc.AsyncCommand<JobsModel, JobsReal> {
  constructor(readonly ms: number) {}
  check(model: Readonly<JobsModel>) {
    return model.clock;
  }
  async run(_model: JobsModel, real: JobsReal) {
    await real.admin!.advanceClock(this.ms / 1000);
  }
  toString() {
    return `AdvanceClock(${(this.ms / 1000).toFixed(3)} s)`;
  }
}

/** GET /api/jobs?limit=100: every job of the sequence is listed, with a status its history allows. */
class List implements fc.AsyncCommand<JobsModel, JobsReal> {
  check() {
    return true;
  }
  async run(model: JobsModel, real: JobsReal) {
    await listAndJudge(model, real, 'the job list');
  }
  toString() {
    return 'List(limit=100)';
  }
}

async function listAndJudge(model: JobsModel, real: JobsReal, where: string) {
  const exchange = await real.client.call('GET', '/api/jobs?limit=100');
  if (isRateLimited(exchange)) return;
  modelExpect(exchange.response.status === 200, 'list-served', `${where}: GET /api/jobs?limit=100 answered ${exchange.response.status}, not 200`, exchange);
  const body = exchange.response.body as { jobs?: unknown; count?: unknown };
  modelExpect(Array.isArray(body.jobs), 'list-served', `${where}: the body has no jobs array (spec 2.2)`, exchange);
  const items = body.jobs as Array<Record<string, unknown>>;
  const count = typeof body.count === 'number' ? body.count : undefined;
  if (model.exact) {
    modelExpect(count === model.jobs.length, 'list-count-exact', `${where}: count is ${JSON.stringify(body.count)} in a tenant holding exactly the ${model.jobs.length} job(s) of this sequence`, exchange);
  }
  const complete = model.exact || (count !== undefined && count <= 100);
  for (const [index, job] of model.jobs.entries()) {
    const item = items.find((candidate) => candidate?.id === job.id);
    if (!item) {
      modelExpect(!complete, 'list-includes-job', `${where}: job #${index + 1} (${job.id}) is missing from a list of ${items.length} of ${JSON.stringify(body.count)} jobs`, exchange);
      continue;
    }
    observe(model, index, item, exchange, `${where}, job #${index + 1}`);
  }
}

/**
 * End of a sequence. Simulator profile: move the clock until every job is COMPLETED or FAILED (a stuck worker
 * fails here), read each once more (terminal states never change), list. Otherwise: poll briefly (spec 8.7)
 * and judge what is seen, without requiring an end.
 */
async function finishSequence(model: JobsModel, real: JobsReal) {
  if (!model.jobs.length) return;
  const indexOf = new Map(model.jobs.map((job, index) => [job.id, index]));
  const onRead = (id: string, exchange: Exchange) => {
    if (isRateLimited(exchange)) return;
    const index = indexOf.get(id)!;
    modelExpect(exchange.response.status === 200, 'job-readable', `at the end: GET /api/jobs/${id} answered ${exchange.response.status}`, exchange);
    observe(model, index, exchange.response.body as Record<string, unknown>, exchange, `job #${index + 1} at the end of the sequence`);
  };
  const ids = model.jobs.map((job) => job.id);
  const started = performance.now();
  const settled = await settleJobs(real.client, ids, { admin: real.admin, realMs: 5_000, onRead });
  if (!real.admin) return;
  const open = model.jobs.filter((job) => !isTerminalStatus(job.status));
  modelExpect(
    settled.settled && open.length === 0,
    'job-reaches-terminal',
    `job(s) ${open.map((job) => `${job.id} (${job.status})`).join(', ')} never reached ${jobLifecycle.terminal.join(' or ')} although the virtual clock moved ${settled.advancedSeconds} s (in ${Math.round(performance.now() - started)} ms of real time) (spec 3.1: the worker starts and finishes every job)`,
  );
  for (const index of model.jobs.keys()) await readJob(real, model, index, `job #${index + 1}, read again once terminal`);
  if (model.exact) await listAndJudge(model, real, 'the job list at the end');
}

let sequenceCounter = 0;

const jobLifecycleModel = defineCheck({
  id: 'jobs.lifecycle-model',
  title: 'Jobs move only along the lifecycle of spec 3.1 and keep the job rules of spec 2.2 on every read',
  area: 'jobs',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const clock = Boolean(ctx.admin);
    const enqueueArb = fc.record({ skus: fc.subarray(SKU_POOL, { minLength: 1, maxLength: 3 }), withKey: fc.boolean() }).map(({ skus, withKey }) => new Enqueue(skus, withKey));
    const commands = [
      enqueueArb,
      enqueueArb,
      fc.nat(31).map((pick) => new Observe(pick)),
      fc.nat(31).map((pick) => new Observe(pick)),
      fc.integer({ min: 0, max: 3_000 }).map((ms) => new AdvanceClock(ms)),
      fc.constant(null).map(() => new List()),
    ];
    await runModel<JobsModel, JobsReal>({
      ctx,
      checkId: 'jobs.lifecycle-model',
      name: 'jobs',
      commands,
      async initial(tools: ModelTools) {
        // A fresh tenant per sequence when the control API is there, so the list holds exactly the model's jobs.
        const tenant = await writeTenant({ client: tools.client, admin: tools.admin }, 'Conformance jobs lifecycle model');
        return {
          model: { jobs: [], exact: tenant.fresh, clock },
          real: { client: tenant.client, admin: tools.admin, keyPrefix: `conf-${RUN_NONCE}-life-${++sequenceCounter}`, keys: 0 },
        };
      },
      finish: finishSequence,
      // Without the control API every sequence writes in the shared tenant and polls in real time: fewer.
      sequences: clock ? ctx.runs : Math.min(ctx.runs, 5),
      maxCommands: 12,
      timeLimitMs: 45_000,
    });
  },
});

// ---------------------------------------------------------------------------------------------------------
// jobs.list-filters

const STATUSES = jobLifecycle.states;

interface ListPage {
  exchange: Exchange;
  jobs: Array<Record<string, unknown>>;
  count: unknown;
}

async function listPage(ctx: CheckContext, client: ConformanceClient, query: string): Promise<ListPage | undefined> {
  const exchange = await client.call('GET', `/api/jobs?${query}`);
  const body = exchange.response.body as { jobs?: unknown; count?: unknown } | null;
  if (!ctx.expect(exchange.response.status === 200 && Array.isArray(body?.jobs), 'list-served', `GET /api/jobs?${query} answered ${exchange.response.status} without a jobs array`, exchange)) return undefined;
  const page = { exchange, jobs: body!.jobs as Array<Record<string, unknown>>, count: body!.count };
  if (ctx.expect(typeof page.count === 'number', 'list-count', `GET /api/jobs?${query}: count is ${JSON.stringify(page.count)}, not an integer (spec 2.2: { jobs, count })`, exchange)) {
    ctx.expect((page.count as number) >= page.jobs.length, 'list-count', `GET /api/jobs?${query}: count ${page.count} is below the ${page.jobs.length} job(s) returned`, exchange);
  }
  return page;
}

const jobListFilters = defineCheck({
  id: 'jobs.list-filters',
  title: 'The job list returns only jobs matching its status and type filters, with a count that ignores the limit',
  area: 'jobs',
  needs: ['writes'],
  async run(ctx) {
    const tenant = await writeTenant(ctx, 'Conformance job list filters');
    const { client } = tenant;
    // A few jobs, some of them finished (simulator profile) so the tenant holds more than one status.
    const ids: string[] = [];
    for (const [index, sku] of SKU_POOL.slice(0, 4).entries()) {
      const exchange = await enqueue(client, batchBody([sku]));
      const id = receiptJobId(exchange);
      if (!id) {
        if (isRateLimited(exchange)) break;
        ctx.fail('enqueue-accepted', `POST /api/sima/batch answered ${exchange.response.status}, not 202`, exchange);
        return;
      }
      ids.push(id);
      if (index === 1 && ctx.admin) await settleJobs(client, ids, { admin: ctx.admin });
    }

    // Spec 4.1: `status` and `type` filter the list; every job returned matches.
    for (const status of STATUSES) {
      const page = await listPage(ctx, client, `status=${status}&limit=100`);
      const wrong = page?.jobs.filter((job) => job.status !== status) ?? [];
      ctx.expect(wrong.length === 0, 'list-filter-status', `GET /api/jobs?status=${status} returned ${wrong.length} job(s) of another status (${[...new Set(wrong.map((job) => String(job.status)))].join(', ')})`, page?.exchange);
    }
    for (const query of ['type=sima_validation&limit=100', 'type=ship_upload&limit=100', 'type=sima_validation&status=COMPLETED&limit=100']) {
      const filters = new URLSearchParams(query);
      const page = await listPage(ctx, client, query);
      const wrong = page?.jobs.filter((job) => job.type !== filters.get('type') || (filters.has('status') && job.status !== filters.get('status'))) ?? [];
      ctx.expect(wrong.length === 0, 'list-filter-type', `GET /api/jobs?${query} returned ${wrong.length} job(s) not matching the filters`, page?.exchange);
    }

    // Spec 2.2: count is the number of jobs matching the filters, whatever the limit. Compared on queries whose
    // matches do not move while jobs run (no status filter).
    for (const filter of ['', 'type=sima_validation&']) {
      const full = await listPage(ctx, client, `${filter}limit=100`);
      const one = await listPage(ctx, client, `${filter}limit=1`);
      if (!full || !one) continue;
      ctx.expect(one.jobs.length <= 1, 'list-limit', `GET /api/jobs?${filter}limit=1 returned ${one.jobs.length} jobs`, one.exchange);
      ctx.expect(one.count === full.count, 'list-count-ignores-limit', `GET /api/jobs?${filter}limit=1 counts ${JSON.stringify(one.count)} where limit=100 counts ${JSON.stringify(full.count)}`, one.exchange);
      if (tenant.fresh && filter === '') {
        ctx.expect(full.count === ids.length, 'list-count', `a tenant holding the ${ids.length} job(s) this check created counts ${JSON.stringify(full.count)}`, full.exchange);
      }
    }
  },
});

export const jobChecks: Check[] = [jobLifecycleModel, jobListFilters];
