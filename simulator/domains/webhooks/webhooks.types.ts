// The webhooks domain's types: what it offers (re-exported by index.ts).
import type { DomainModule } from '../domain.js';
import type { AllowTargets } from './allow-targets.js';
import type { ResolverHosts } from './resolver-hosts.js';
import type { Resolve } from './transport.js';

export type WebhookEvent = 'job.completed' | 'job.failed';

/** spec 6: the default subscription is both events. */
export const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['job.completed', 'job.failed'];

export interface WebhookConfig {
  url: string;
  secret: string | null;
  events: WebhookEvent[];
}

export interface DeliveryAttempt {
  number: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The X-SVC-Signature header sent (null when unsigned); absent on attempts stored before it was kept. */
  signature?: string | null;
  /** Sandbox-defined: the webhook chaos members that altered this attempt (absent when none did). */
  chaos?: string[];
  /** Sandbox-defined: under chaos `duplicate`, the receiver's answer to the second copy (null: no answer). */
  duplicateStatusCode?: number | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * Sandbox-defined: what made a delivery. `job`: the job ended (spec 6); `trigger`: a sample sent through the
 * control API (`tfas trigger`); `redelivery`: a past delivery sent again through it (`tfas resend`).
 */
export type DeliveryOrigin = 'job' | 'trigger' | 'redelivery';

export interface DeliveryView {
  id: string;
  tenantId: string;
  jobId: string;
  event: WebhookEvent;
  url: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
  /** Sandbox-defined; absent on deliveries stored before it was kept (they are `job`'s). */
  origin?: DeliveryOrigin;
  /** Sandbox-defined: the delivery a redelivery sends again. */
  redeliveryOf?: string;
}

/** The jobs domain's `FinishedJob` event, declared structurally so this domain does not import jobs. */
export interface FinishedJob {
  tenantId: string;
  job: {
    id: string;
    type: string;
    status: 'COMPLETED' | 'FAILED';
    progress: number;
    createdAt: string;
    updatedAt: string;
    result: Record<string, unknown> | null;
    error: string | null;
  };
}

export interface WebhooksDomain extends DomainModule {
  /**
   * Reads the webhook configuration from an enqueue body (top-level webhookUrl/webhookSecret/webhookEvents or
   * nested `webhook: { url, secret, events }`). null when none; 400 INVALID_REQUEST naming the field otherwise.
   */
  parseConfig(body: unknown): WebhookConfig | null;
  /** Remembers the configuration of a job; the secret is encrypted at rest. */
  attach(jobId: string, tenantId: string, config: WebhookConfig): Promise<void>;
  /** A job reached COMPLETED/FAILED: creates a delivery when subscribed and schedules attempt 1 now. */
  jobFinished(event: FinishedJob): Promise<void>;
  deliveries(filter?: { tenantId?: string; jobId?: string }): Promise<DeliveryView[]>;
  /**
   * Sandbox-defined (`tfas trigger`; spec 6 has no such operation): a delivery of `event` for a job that has a
   * webhook configuration, made and sent as a real one (body, headers, signature, retries) to the job's
   * webhook, whatever the job's state and its `webhookEvents`. The job does not change. 404 when no job with
   * a webhook configuration has that id (for `tenantId`, when given).
   */
  trigger(input: { jobId: string; event: WebhookEvent; tenantId?: string }): Promise<DeliveryView>;
  /**
   * Sandbox-defined (`tfas resend`; spec 6 rule 3: the service has no manual retry): a new delivery, with a new
   * delivery id and up to 4 attempts of its own, of the event a past delivery sent, to the same URL with the
   * same secret. 404 for an unknown delivery, 409 ACTION_NOT_ALLOWED while it is still pending.
   */
  redeliver(deliveryId: string): Promise<DeliveryView>;
  /** The webhook allow list (local testing only), replaceable at run time through the control API. */
  allowTargets: AllowTargets;
  /** The delivery resolver's host table (local testing only), replaceable at run time through the control API. */
  resolverHosts: ResolverHosts;
}

/** How createWebhooks reaches the network (tests hand their own resolver and a short timeout). */
export interface WebhooksOptions {
  /** DNS resolution of delivery hosts (default: node:dns lookup, every address). */
  resolve?: Resolve;
  /** Real-time limit of one attempt (default spec 6 rule 2: 10 s). */
  timeoutMs?: number;
  /** A job of a tenant as a delivery of `status` describes it (the jobs domain's sampleFinished); for trigger(). */
  sampleJob?: (tenantId: string, jobId: string, status: FinishedJob['job']['status']) => Promise<FinishedJob | undefined>;
}
