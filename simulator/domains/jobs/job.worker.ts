// The background worker (spec 3.1) on the tenants' virtual clocks. A job starts config.jobStartDelayMs after
// it was enqueued (PENDING -> PROCESSING), its type's processor runs, and it ends no earlier than
// config.jobProcessingMs after it started (-> COMPLETED with progress 100, or FAILED with the error's
// message). Every transition goes through the machine table in force (the job table with the rows of the
// deviations that are on, jobs.defects.ts) and is a compare-and-set on the job's revision, so two workers
// (or instances) cannot both move one job; each is flushed before anything else happens, so a crash never
// loses a state a client has seen, and the finished event fires only once the terminal state is durable. A
// restart resumes every PENDING and PROCESSING job. A resumed job tells the truth (issue 30 item 3): the
// processor's verdict is saved on the job the moment it settles, before the job waits out its processing
// time, so a job found PROCESSING with a verdict finishes with it (COMPLETED with its result, or FAILED
// with its reason) instead of running again over work already done; a job without one runs again, and
// each processor recognises from its domain's records what an earlier run of the same job already did
// (jobs.settlement.ts). With several instances on one database (issue 17) a job
// runs where its lease is (kernel/lease-keeper.ts): the instance that created it, or the one that took it
// over when that instance stopped renewing its leases. A job found under way more than MAX_RESUMES times
// (its count written before each run) is not run again: it ends FAILED saying so, so that an input that
// takes the process down cannot do it at every start (issue 30). SIM_CRASH_AT (testing only, crash-point.ts)
// makes the process SIGKILL itself inside one kind of job's run: the resume crash tests aim with it.
import type { KernelDeps } from '../../kernel/deps.js';
import { leaseKeeper } from '../../kernel/lease-keeper.js';
import { canTransition, transition } from '../../kernel/machine.js';
import { jobMachine, pickUpAction, type JobAction } from './job.machine.js';
import { atCrashPoint, parseCrashPoint } from './crash-point.js';
import { toFinishedJob } from './job.response.js';
import { emptyReconciliation, emptySkippedRows, zeroOutcomes, type JobStore } from './job.store.js';
import { JOBS_HOOKS } from './jobs.hooks.js';
import type { FinishedJob, JobProcessor, JobRecord, JobSettlement as Settled, JobType } from './jobs.types.js';

/** Resumptions a job gets (sandbox-defined): the one after a crash, and one more; past them it FAILS. */
export const MAX_RESUMES = 2;

/** spec 3.1: FAILED with a reason, the reason being that every run of it so far ended with the process. */
const tooManyResumes = (resumes: number) =>
  `the sandbox stopped ${resumes} times while this job was running (the last ${MAX_RESUMES} after resuming it), so it is not run again: send its input again, or a smaller one`;

/** The message a failed job shows: the error's own words, never a stack. */
function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return message.trim() || 'the job failed without a message';
}

export function createWorker(deps: KernelDeps, jobs: JobStore) {
  const { scheduler, config, log } = deps;
  const processors = new Map<string, JobProcessor>();
  const keyOf = (type: JobType, variant?: string) => (variant ? `${type}/${variant}` : type);
  const listeners: Array<(event: FinishedJob) => void | Promise<void>> = [];
  /** Jobs with a start on the scheduler or a run under way, per generation: never run one twice. A stop
   *  begins a new generation, so runs of the old one abandon their job and a later start resumes it. */
  const claimed = new Map<string, { generation: number; cancel: () => void }>();
  let generation = 0;
  let stopped = false;
  const leases = leaseKeeper(deps.store, 'job', log);
  const crashPoint = parseCrashPoint(config.crashAt);
  /** SIM_CRASH_AT (testing only, crash-point.ts): at its moment the process dies as a SIGKILL leaves it. */
  const crashIfAt = async (job: JobRecord, moment: { settled: true } | { percent: number }) => {
    if (!atCrashPoint(crashPoint, job, moment)) return;
    await deps.store.flush();
    log.warn({ jobId: job.id, crashAt: config.crashAt }, 'SIM_CRASH_AT: the process kills itself here');
    process.kill(process.pid, 'SIGKILL');
    await new Promise<never>(() => {}); // nothing after this runs
  };
  const clockOf = (job: Pick<JobRecord, 'tenantId'>) => deps.clocks.of(job.tenantId);
  // Not kernel move(): a worker's move is made once, by whichever worker saves first. A lost compare-and-set
  // means another worker (or instance) made it, or a reset removed the job: there is nothing to decide
  // again, where move() would load and judge once more (and answer 409 for a job already moved).
  const save = (job: JobRecord) => jobs.update(deps.defects.at(JOBS_HOOKS.savedJob, job));
  /** The job's next state by the table in force (the deviations that are on apply their rows). */
  const next = (job: JobRecord, action: JobAction) => transition(jobMachine, job.status, action, undefined, {}, deps.defects);

  const waitUntil = (job: JobRecord, whenMs: number) =>
    new Promise<void>((resolve) => {
      const cancel = scheduler.at(whenMs, resolve, job.tenantId);
      if (stopped) cancel();
    });

  const reportProgress = async (jobId: string, percent: number) => {
    const job = await jobs.get(jobId);
    if (!job || job.status !== 'PROCESSING' || !Number.isFinite(percent)) return;
    // Below 100 until the job is COMPLETED (spec 2.2), and never backwards.
    const progress = Math.max(0, Math.min(99, Math.floor(percent)));
    if (progress <= job.progress) return;
    // A lost compare-and-set means the job moved on: its progress no longer matters.
    await save({ ...job, progress, updatedAt: clockOf(job).nowIso() });
  };

  const runProcessor = async (job: JobRecord): Promise<Settled> => {
    const processor = processors.get(keyOf(job.type, job.variant));
    if (!processor) return { ok: false, error: `no worker handles jobs of type ${keyOf(job.type, job.variant)} in this sandbox` };
    try {
      const outcome = await processor(job, {
        progress: async (percent) => {
          await crashIfAt(job, { percent });
          await reportProgress(job.id, percent);
        },
      });
      if (!outcome || typeof outcome !== 'object' || !outcome.result || typeof outcome.result !== 'object') {
        return { ok: false, error: `the ${job.type} worker returned no result` };
      }
      return { ok: true, outcome };
    } catch (error) {
      log.debug({ jobId: job.id, err: error }, 'job processor failed');
      return { ok: false, error: failureMessage(error) };
    }
  };

  const notify = async (event: FinishedJob) => {
    for (const listener of listeners) {
      try {
        await listener(event);
      } catch (error) {
        log.error({ jobId: event.job.id, err: error }, 'job finished listener failed');
      }
    }
  };

  /** A job whose worker failed, as the table in force ends it (spec 2.2: FAILED with the failure's message). */
  const failedJob = (job: JobRecord, error: string, now: string): JobRecord => {
    const status = next(job, 'fail');
    return { ...job, status, error: deps.defects.at(JOBS_HOOKS.failureError, error, { status }), updatedAt: now, finishedAt: now };
  };

  const finish = async (jobId: string, settled: Settled) => {
    const job = await jobs.get(jobId);
    if (!job || job.status !== 'PROCESSING') return; // reset, or finished elsewhere
    const now = clockOf(job).nowIso();
    const ended: JobRecord = settled.ok
      ? {
          ...job,
          status: next(job, 'succeed'),
          progress: 100,
          result: settled.outcome.result,
          reconciliation: { ...emptyReconciliation(), ...settled.outcome.reconciliation },
          skippedRows: settled.outcome.skippedRows ?? emptySkippedRows(),
          warnings: settled.outcome.warnings ?? null,
          outcomes: { ...zeroOutcomes(), ...settled.outcome.outcomes },
          error: null,
          updatedAt: now,
          finishedAt: now,
        }
      : failedJob(job, settled.error, now);
    ended.settled = null; // the verdict now is the terminal state
    // The terminal state and the pending notice are one write: a crash before the listeners ran (webhook
    // delivery, file clean-up) is caught up by the next start instead of losing the webhook for good.
    const saved = await save({ ...ended, noticePending: true });
    if (!saved) return; // another worker finished it
    await deps.store.flush();
    await announce(saved);
  };

  /** Runs the finished listeners (each idempotent), then clears the pending notice. */
  const announce = async (job: JobRecord) => {
    await notify(toFinishedJob(job as JobRecord & { status: 'COMPLETED' | 'FAILED' }));
    // A listener may have rewritten the job (compare-and-set): clear the flag on the latest revision.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const latest = await jobs.get(job.id);
      if (!latest?.noticePending || (await jobs.update({ ...latest, noticePending: false }))) return;
    }
    log.warn({ jobId: job.id }, 'the pending notice of a finished job could not be cleared; it runs again at the next start');
  };

  const run = async (jobId: string, gen: number) => {
    const job = await jobs.get(jobId);
    if (gen !== generation || !job || jobMachine.terminal.includes(job.status)) return;
    // start (PENDING) or resume (PROCESSING, caught by a restart: it runs again from the start). A job the
    // table in force does not let move stays where it is (background work: there is no one to answer 409).
    // A job whose processor had already settled before the restart is not run again: it ends with that
    // verdict once its processing time (from its first start) is over.
    if (job.status === 'PROCESSING' && job.settled) return settle(job, job.settled, gen);
    const action = pickUpAction(job.status);
    if (!canTransition(jobMachine, job.status, action, deps.defects)) return;
    const now = clockOf(job).nowIso();
    // Counted and durable before the run: a run that takes the process down still counts.
    const resumes = (job.resumes ?? 0) + (action === 'resume' ? 1 : 0);
    const started = await save({ ...job, status: next(job, action), progress: 0, startedAt: now, updatedAt: now, settled: null, ...(resumes > 0 ? { resumes } : {}) });
    if (!started) return; // another worker picked it up
    await deps.store.flush();
    const settled: Settled = resumes > MAX_RESUMES ? { ok: false, error: tooManyResumes(resumes) } : await runProcessor(started);
    if (gen !== generation) return;
    await crashIfAt(started, { settled: true });
    // The verdict is durable before the wait: a crash from here on cannot make the job run again.
    const latest = await jobs.get(jobId);
    if (!latest || latest.status !== 'PROCESSING') return; // reset, or finished elsewhere
    const checkpoint = await save({ ...latest, settled });
    if (!checkpoint) return; // another worker moved it meanwhile
    await deps.store.flush();
    await settle(checkpoint, settled, gen);
  };

  /** Waits out the job's processing time (from its start), then ends it with the processor's verdict. */
  const settle = async (started: JobRecord, settled: Settled, gen: number) => {
    const due = Date.parse(started.startedAt!) + deps.defects.at(JOBS_HOOKS.processingMs, config.jobProcessingMs);
    if (clockOf(started).now() < due) await waitUntil(started, due);
    if (gen !== generation) return;
    await finish(started.id, settled);
  };

  const launch = (job: JobRecord, whenMs: number) => {
    if (stopped || claimed.get(job.id)?.generation === generation) return;
    const gen = generation;
    const cancel = scheduler.at(
      whenMs,
      async () => {
        let failed = false;
        try {
          await run(job.id, gen);
        } catch (error) {
          // A broken store must not take the worker down with it; the job resumes on the next start or,
          // over a shared store, at the next lease round of any instance (this one included).
          failed = true;
          log.error({ jobId: job.id, err: error }, 'job run failed');
        } finally {
          if (claimed.get(job.id)?.generation === gen) {
            claimed.delete(job.id);
            void (failed ? leases.handOver(job.id) : leases.release(job.id));
          }
        }
      },
      job.tenantId,
    );
    claimed.set(job.id, { generation: gen, cancel });
  };

  /** A job found in flight or with its notice pending (a restart, or a takeover): resumed when held here. */
  const pickUp = async (job: JobRecord) => {
    if (stopped || !(await leases.hold(job.id))) return;
    if (job.noticePending && jobMachine.terminal.includes(job.status)) {
      try {
        await announce(job);
      } catch (error) {
        log.error({ jobId: job.id, err: error }, 'catching up the notice of a finished job failed');
      }
      await leases.release(job.id);
      return;
    }
    if (jobMachine.terminal.includes(job.status)) return leases.release(job.id);
    const now = clockOf(job).now();
    const when = job.status === 'PENDING' ? Date.parse(job.createdAt) + config.jobStartDelayMs : now;
    launch(job, Math.max(when, now));
  };

  return {
    register(type: JobType, processor: JobProcessor, variant?: string) {
      // One worker per type (or variant): a second one would silently take over the first domain's jobs.
      const key = keyOf(type, variant);
      if (processors.has(key)) throw new Error(`job type ${key} already has a processor`);
      processors.set(key, processor);
    },
    onFinished(listener: (event: FinishedJob) => void | Promise<void>) {
      listeners.push(listener);
    },
    /** A new PENDING job starts after the configured delay (on its tenant's clock), here: its lease is
     *  this instance's before the job is acknowledged. */
    async schedule(job: JobRecord) {
      if (await leases.hold(job.id)) launch(job, Date.parse(job.createdAt) + config.jobStartDelayMs);
    },
    /** After a restart: every in-flight job (from the index, no scan) is picked up again, unless another
     *  live instance holds it. Then this instance keeps its leases and takes over those of stopped ones. */
    async resumeAll() {
      stopped = false;
      // Jobs that ended just before a crash, before their listeners ran (from the index, no scan).
      for (const job of await jobs.noticePending()) await pickUp(job);
      for (const job of await jobs.inFlight()) await pickUp(job);
      leases.start(async (jobId) => {
        const job = await jobs.get(jobId);
        if (job) await pickUp(job);
        else await leases.release(jobId);
      });
    },
    /** Another instance takes this one's unfinished jobs at its next round instead of after their
     *  leases' expiry (a released lease would leave them to nobody until a restart). */
    async stop() {
      stopped = true;
      generation += 1;
      leases.stop();
      for (const claim of claimed.values()) claim.cancel();
      const jobIds = [...claimed.keys()];
      claimed.clear();
      await leases.handOver(...jobIds);
    },
  };
}
