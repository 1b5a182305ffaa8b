// The background worker (spec 3.1) on the virtual clock. A job starts config.jobStartDelayMs after it was
// enqueued (PENDING -> PROCESSING), its type's processor runs, and it ends no earlier than
// config.jobProcessingMs after it started (-> COMPLETED with progress 100, or FAILED with the error's
// message). Every transition is flushed before anything else happens, so a crash never loses a state a
// client has seen; the finished event fires only once the terminal state is durable. A restart resumes
// every PENDING and PROCESSING job.
import type { KernelDeps } from '../../kernel/deps.js';
import { transition } from '../../kernel/machine.js';
import type { FinishedJob, JobOutcome, JobProcessor, JobRecord, JobType } from './index.js';
import { jobMachine } from './job.machine.js';
import { toFinishedJob } from './job.response.js';
import { emptyReconciliation, emptySkippedRows, zeroOutcomes, type JobStore } from './job.store.js';

type Settled = { ok: true; outcome: JobOutcome } | { ok: false; error: string };

/** The message a failed job shows: the error's own words, never a stack. */
export function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return message.trim() || 'the job failed without a message';
}

export function createWorker(deps: KernelDeps, jobs: JobStore) {
  const { clock, scheduler, config, log } = deps;
  const processors = new Map<JobType, JobProcessor>();
  const listeners: Array<(event: FinishedJob) => void> = [];
  /** Jobs with a start on the scheduler or a run under way, per generation: never run one twice. A stop
   *  begins a new generation, so runs of the old one abandon their job and a later start resumes it. */
  const claimed = new Map<string, { generation: number; cancel: () => void }>();
  let generation = 0;
  let stopped = false;
  // defect injection (SIM_DEFECTS): jobs.updated-at-frozen keeps updatedAt at its creation value through transitions.
  const save = (job: JobRecord) => jobs.save(deps.defects.has('jobs.updated-at-frozen') ? { ...job, updatedAt: job.createdAt } : job);

  const waitUntil = (whenMs: number) =>
    new Promise<void>((resolve) => {
      const cancel = scheduler.at(whenMs, resolve);
      if (stopped) cancel();
    });

  const reportProgress = (jobId: string, percent: number) => {
    const job = jobs.get(jobId);
    if (!job || job.status !== 'PROCESSING' || !Number.isFinite(percent)) return;
    // Below 100 until the job is COMPLETED (spec 2.2), and never backwards.
    const progress = Math.max(0, Math.min(99, Math.floor(percent)));
    if (progress <= job.progress) return;
    save({ ...job, progress, updatedAt: clock.nowIso() });
  };

  const runProcessor = async (job: JobRecord): Promise<Settled> => {
    const processor = processors.get(job.type);
    if (!processor) return { ok: false, error: `no worker handles jobs of type ${job.type} in this sandbox` };
    try {
      const outcome = await processor(job, { progress: (percent) => reportProgress(job.id, percent) });
      if (!outcome || typeof outcome !== 'object' || !outcome.result || typeof outcome.result !== 'object') {
        return { ok: false, error: `the ${job.type} worker returned no result` };
      }
      return { ok: true, outcome };
    } catch (error) {
      log.debug({ jobId: job.id, err: error }, 'job processor failed');
      return { ok: false, error: failureMessage(error) };
    }
  };

  const finish = async (jobId: string, settled: Settled) => {
    const job = jobs.get(jobId);
    if (!job || job.status !== 'PROCESSING') return; // reset, or finished elsewhere
    const now = clock.nowIso();
    const ended: JobRecord = settled.ok
      ? {
          ...job,
          status: transition(jobMachine, job.status, 'succeed', undefined),
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
      : { ...job, status: transition(jobMachine, job.status, 'fail', undefined), error: settled.error, updatedAt: now, finishedAt: now };
    const saved = save(ended);
    await deps.store.flush();
    const event = toFinishedJob(saved as JobRecord & { status: 'COMPLETED' | 'FAILED' });
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log.error({ jobId, err: error }, 'job finished listener failed');
      }
    }
  };

  const run = async (jobId: string, gen: number) => {
    const job = jobs.get(jobId);
    if (gen !== generation || !job || jobMachine.terminal.includes(job.status)) return;
    // defect injection (SIM_DEFECTS): jobs.stuck-pending never starts a job.
    if (job.status === 'PENDING' && deps.defects.has('jobs.stuck-pending')) return;
    const now = clock.nowIso();
    // A PROCESSING job here was caught by a restart: it runs again from the start (nothing stays stuck).
    const started = save(
      job.status === 'PENDING'
        ? { ...job, status: transition(jobMachine, job.status, 'start', undefined), progress: 0, startedAt: now, updatedAt: now }
        : { ...job, progress: 0, startedAt: now, updatedAt: now },
    );
    await deps.store.flush();
    const settled = await runProcessor(started);
    const due = Date.parse(started.startedAt!) + config.jobProcessingMs;
    if (clock.now() < due) await waitUntil(due);
    if (gen !== generation) return;
    await finish(jobId, settled);
  };

  const launch = (jobId: string, whenMs: number) => {
    if (stopped || claimed.get(jobId)?.generation === generation) return;
    const gen = generation;
    const cancel = scheduler.at(whenMs, async () => {
      try {
        await run(jobId, gen);
      } catch (error) {
        // A broken store must not take the worker down with it; the job resumes on the next start.
        log.error({ jobId, err: error }, 'job run failed');
      } finally {
        if (claimed.get(jobId)?.generation === gen) claimed.delete(jobId);
      }
    });
    claimed.set(jobId, { generation: gen, cancel });
  };

  return {
    register(type: JobType, processor: JobProcessor) {
      // One worker per type: a second one would silently take over the first domain's jobs.
      if (processors.has(type)) throw new Error(`job type ${type} already has a processor`);
      processors.set(type, processor);
    },
    onFinished(listener: (event: FinishedJob) => void) {
      listeners.push(listener);
    },
    /** A new PENDING job starts after the configured delay (virtual time). */
    schedule(job: JobRecord) {
      launch(job.id, Date.parse(job.createdAt) + config.jobStartDelayMs);
    },
    /** After a restart: every in-flight job (from the index, no scan) is picked up again. */
    resumeAll() {
      stopped = false;
      for (const job of jobs.inFlight()) {
        const when = job.status === 'PENDING' ? Date.parse(job.createdAt) + config.jobStartDelayMs : clock.now();
        launch(job.id, Math.max(when, clock.now()));
      }
    },
    stop() {
      stopped = true;
      generation += 1;
      for (const claim of claimed.values()) claim.cancel();
      claimed.clear();
    },
  };
}
