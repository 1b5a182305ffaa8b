// The jobs domain's types (spec 2.2, 3.1, 8.2): the stored job, what processors return, the finished-job
// event and what the domain offers the others.
import type { Schema } from '../../../contracts/generated/index.js';
import type { DomainModule } from '../domain.js';
import type { JobStatus } from './job.machine.js';

export type { JobStatus } from './job.machine.js';

/** spec 2.2: the job types (also the job-list filter values). */
export type JobType = Schema<'JobType'>;

/** Which queue-admission cap a job counts against (spec 8.2, 8.4), besides the tenant total. */
export type QueueFamily = 'sima' | 'upload' | 'preview' | 'other';

/** spec 2.2 `reconciliation`, `skippedRows` and `outcomes`: the contract's schemas. */
export type JobReconciliation = Schema<'Reconciliation'>;
export type JobSkippedRows = Schema<'SkippedRows'>;
export type JobOutcomeCounts = Schema<'JobOutcomes'>;

export interface JobRecord {
  id: string;
  rev?: number;
  tenantId: string;
  type: JobType;
  /**
   * Which processor runs the job when several kinds of work share one public type (spec 2.2 has one
   * `catalog_upload` for catalog uploads, feed normalization and classify previews). Never sent.
   */
  variant?: string;
  status: JobStatus;
  progress: number;
  fileName?: string;
  /** What the processor needs (the validated request, a stored file's path...). */
  input: unknown;
  result: Record<string, unknown>;
  reconciliation: JobReconciliation;
  skippedRows: JobSkippedRows;
  warnings: Record<string, number> | null;
  outcomes: JobOutcomeCounts;
  error: string | null;
  family: QueueFamily;
  /** Creation order within the tenant: breaks createdAt ties so "newest first" is stable. */
  seq: number;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /**
   * Set in the same write as the terminal state, cleared once every finished listener (webhooks, file
   * clean-up) has run: a crash in between is caught up at the next start (an outbox; never in a response).
   */
  noticePending?: boolean;
  /**
   * How many times the job was picked up again while PROCESSING (a restart or a takeover found it under way),
   * written before it runs again: a job that keeps taking the process down ends FAILED instead of forever
   * (job.worker.ts MAX_RESUMES). Never in a response.
   */
  resumes?: number;
  /**
   * The processor's verdict, saved (and flushed) the moment it settles, while the job still waits out its
   * processing time: a restart or a takeover finishes the job with it instead of running the processor
   * again over domain work already done (issue 30 item 3). Cleared with the terminal state; never sent.
   */
  settled?: JobSettlement | null;
}

/** What a processor's run came to: its outcome, or the message it failed with. */
export type JobSettlement = { ok: true; outcome: JobOutcome } | { ok: false; error: string };

/** What a processor hands back on success; everything but `result` defaults (spec 2.2 zeros and nulls). */
export interface JobOutcome {
  result: Record<string, unknown>;
  reconciliation?: Partial<JobReconciliation>;
  skippedRows?: JobSkippedRows;
  warnings?: Record<string, number> | null;
  outcomes?: Partial<JobOutcomeCounts>;
}

/** Runs one job. Throw to fail it: the error's message becomes the job's `error`. */
export type JobProcessor = (job: JobRecord, context: { progress(percent: number): Promise<void> }) => Promise<JobOutcome>;

/** What the webhooks domain needs when a job ends: exactly the delivery body's `job` object plus tenantId. */
export interface FinishedJob {
  tenantId: string;
  job: {
    id: string;
    type: JobType;
    status: 'COMPLETED' | 'FAILED';
    progress: number;
    createdAt: string;
    updatedAt: string;
    result: Record<string, unknown> | null;
    error: string | null;
  };
}

export interface JobsDomain extends DomainModule {
  /** The store collection holding the jobs (scripts/bench/fill-store.ts fills it directly). */
  readonly collectionName: string;
  /** One processor per type; registering a second one for a type throws. */
  /** The processor of a job type, or of one `variant` of it (jobs enqueued with that variant). */
  registerJobType(type: JobType, processor: JobProcessor, variant?: string): void;
  /**
   * Queue admission (spec 8.2: caps on PENDING + PROCESSING per tenant: total, upload family, SIMA; 8.4:
   * classify-preview), then a PENDING job whose start is scheduled on the virtual clock. At a cap: 429
   * RATE_LIMITED with { bucket, limit, windowMs: 0, retryAfterSeconds, keyId }.
   */
  enqueue(input: { tenantId: string; keyId: string | null; type: JobType; variant?: string; family: QueueFamily; fileName?: string; input?: unknown }): Promise<JobRecord>;
  get(tenantId: string, jobId: string): Promise<JobRecord | undefined>;
  /** The contract's JobResponse (schemas/jobs.yaml Job) for a record. */
  toResponse(job: JobRecord): Schema<'Job'>;
  /** Fired once a job's terminal state is durable; the listener's promise is awaited (and its error logged). */
  onFinished(listener: (event: FinishedJob) => void | Promise<void>): void;
  /**
   * Sandbox-defined (`tfas trigger`, POST /_sim/webhooks/trigger): the job of the tenant as a delivery of
   * `status` would describe it (job.response.ts toSampleFinishedJob); undefined when the tenant has no such job.
   */
  sampleFinished(tenantId: string, jobId: string, status: FinishedJob['job']['status']): Promise<FinishedJob | undefined>;
  inFlightCount(tenantId: string, family?: QueueFamily): Promise<number>;
}
