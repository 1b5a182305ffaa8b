// Runs delivery attempts on the tenant's virtual clock (spec 6 delivery rules, decision 9): attempt 1 when
// the job ends, each retry a fixed gap after the previous failure, every attempt recorded durably (a
// compare-and-set on the delivery, so one attempt is recorded once even with several dispatchers) before the
// next is scheduled, and pending deliveries resumed after a restart. With several instances on one database
// (issue 17) a delivery is attempted where its lease is (kernel/lease-keeper.ts): the instance that created
// it, or the one that took it over, resuming it with the same delivery id and the next attempt number.
import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { KernelDeps } from '../../kernel/deps.js';
import { leaseKeeper } from '../../kernel/lease-keeper.js';
import { transition } from '../../kernel/machine.js';
import { actionAfter, deliveryMachine, RETRY_GAPS_MS } from './delivery.machine.js';
import { isAllowedTarget } from './ssrf.js';
import type { SecretBox } from './secret-box.js';
import { AttemptInterrupted, sendAttempt, type AttemptResult, type Resolve } from './transport.js';
import { chaosOfAttempt, OLD_TIMESTAMP_SECONDS, webhookChaosOf, WRONG_SIGNATURE_PREFIX } from './webhook-chaos.js';
import type { StoredDelivery, WebhookStore } from './webhook.store.js';
import { WEBHOOKS_HOOKS, type SignatureScheme } from './webhooks.hooks.js';
import type { DeliveryAttempt } from './webhooks.types.js';

export interface DispatcherOptions {
  resolve: Resolve;
  timeoutMs: number;
  /** The webhook allow list in force (allow-targets.ts), read at each attempt; default the start-up list. */
  allowTargets?: () => readonly string[];
}

/** spec 6: `v1=` + hex HMAC-SHA256 of "<timestamp>.<raw body>" keyed with the secret. */
const signature = (secret: string, timestamp: number, body: string) =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** The `body-only` scheme (a defect's, or chaos `badSignature`): the body alone signed, without the timestamp. */
const bodyOnlySignature = (secret: string, body: string) => `v1=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The X-SVC-Signature header of an attempt signed by `scheme` (none: no header). */
function signatureHeader(scheme: SignatureScheme, secret: string, timestamp: number, body: string): { 'X-SVC-Signature'?: string } {
  if (scheme === 'none') return {};
  return { 'X-SVC-Signature': scheme === 'body-only' ? bodyOnlySignature(secret, body) : signature(secret, timestamp, body) };
}

export function createDispatcher(deps: KernelDeps, store: WebhookStore, secrets: SecretBox, options: DispatcherOptions) {
  const scheduled = new Map<string, () => void>();
  const running = new Map<string, Promise<void>>();
  const shutdown = new AbortController();
  let stopped = false;

  const leases = leaseKeeper(deps.store, 'delivery', deps.log);

  const scheduleHere = (delivery: StoredDelivery & { nextAttemptAt: string }) => {
    if (stopped) return;
    scheduled.get(delivery.id)?.();
    scheduled.set(delivery.id, deps.scheduler.at(Date.parse(delivery.nextAttemptAt), () => run(delivery.id), delivery.tenantId));
  };

  const schedule = (delivery: StoredDelivery) => {
    if (stopped) return;
    if (delivery.status !== 'pending' || delivery.nextAttemptAt === null) return void leases.release(delivery.id);
    const due = delivery as StoredDelivery & { nextAttemptAt: string };
    if (!leases.shared) return scheduleHere(due);
    leases.hold(delivery.id).then(
      (held) => held && scheduleHere(due),
      (error: unknown) => deps.log.error({ err: error, deliveryId: delivery.id }, 'webhook delivery lease not taken; another instance takes it over'),
    );
  };

  const run = (id: string): Promise<void> | undefined => {
    scheduled.delete(id);
    if (stopped || running.has(id)) return running.get(id);
    const attempt = attemptOnce(id)
      .catch((error) => {
        deps.log.error({ err: error, deliveryId: id }, 'webhook attempt crashed');
        // Still pending: over a shared store, the next lease round of any instance (this one included)
        // tries again; otherwise the next start does.
        void leases.handOver(id);
      })
      .finally(() => running.delete(id));
    running.set(id, attempt);
    return attempt;
  };

  /** Chaos `badSignature` signs the body alone; the deviations in force may change the scheme again. */
  const headersFor = (delivery: StoredDelivery, number: number, timestamp: number, secret: string | null, badSignature = false) => ({
    'Content-Type': 'application/json',
    'User-Agent': 'svc-sandbox-webhooks/1',
    'X-SVC-Event': deps.defects.at(WEBHOOKS_HOOKS.eventHeader, delivery.event),
    'X-SVC-Timestamp': String(timestamp),
    'X-SVC-Delivery-ID': delivery.id,
    'X-SVC-Attempt': String(number),
    ...(secret === null ? {} : signatureHeader(deps.defects.at(WEBHOOKS_HOOKS.signatureScheme, badSignature ? 'body-only' : 'timestamped'), secret, timestamp, delivery.body)),
  });

  /** The delivery as this attempt sends it: under the id in force (header and body), the stored one unless a deviation changes it. */
  const asSent = (delivery: StoredDelivery): StoredDelivery => {
    const id = deps.defects.at(WEBHOOKS_HOOKS.attemptDeliveryId, delivery.id, { newId: () => deps.ids.uuid() });
    if (id === delivery.id) return delivery;
    return { ...delivery, id, body: JSON.stringify({ ...JSON.parse(delivery.body), id }) };
  };

  /** The secret in clear for this attempt; undefined when a configured secret cannot be opened. */
  const secretOf = async (delivery: StoredDelivery): Promise<string | null | undefined> => {
    const sealed = (await store.config(delivery.jobId))?.secret ?? null;
    if (sealed === null) return null;
    try {
      return await secrets.open(sealed, delivery.jobId);
    } catch {
      return undefined;
    }
  };

  async function attemptOnce(id: string): Promise<void> {
    const delivery = await store.delivery(id);
    if (!delivery || delivery.status !== 'pending') return;
    const clock = deps.clocks.of(delivery.tenantId);
    // Attempts are appended only when they end: one cut off by a crash is retried with the same number.
    const number = delivery.attempts.length + 1;
    const startedAt = clock.now();
    // Webhook chaos of the tenant (PUT /_sim/tenants/{id}/faults; off by default): see webhook-chaos.ts.
    const chaos = webhookChaosOf(deps.defects, delivery.tenantId);
    const timestamp = Math.floor(startedAt / 1000) - (chaos.oldTimestamp ? OLD_TIMESTAMP_SECONDS : 0);
    const secret = await secretOf(delivery);
    const started = performance.now();
    let result: AttemptResult;
    // Kept with the attempt (sandbox-defined, the console shows it): the X-SVC-Signature header as sent.
    let sentSignature: string | null = null;
    let duplicateStatusCode: number | null | undefined;
    if (secret === undefined) {
      // Never send unsigned what the integrator asked to be signed.
      result = { statusCode: null, error: 'the webhook secret could not be decrypted' };
    } else {
      try {
        const sent = asSent(delivery);
        const headers: Record<string, string> = headersFor(sent, number, timestamp, secret, chaos.badSignature);
        // Chaos `wrongPrefix`: the right digest under a prefix the spec does not define.
        if (chaos.wrongPrefix && headers['X-SVC-Signature']) headers['X-SVC-Signature'] = WRONG_SIGNATURE_PREFIX + headers['X-SVC-Signature'].replace(/^v1=/, '');
        sentSignature = headers['X-SVC-Signature'] ?? null;
        const send = () =>
          sendAttempt({
            url: delivery.url,
            headers,
            body: sent.body,
            resolve: options.resolve,
            allowed: isAllowedTarget(new URL(delivery.url), options.allowTargets?.() ?? deps.config.webhookAllowTargets),
            checkResolved: deps.defects.at(WEBHOOKS_HOOKS.resolvedAddressesChecked, true),
            timeoutMs: deps.defects.at(WEBHOOKS_HOOKS.attemptTimeoutMs, options.timeoutMs),
            signal: shutdown.signal,
          });
        result = await send();
        // Chaos `duplicate`: the same attempt again (same delivery id, bytes and signature), as an
        // at-least-once sender may; only the first send's result is the attempt's.
        if (chaos.duplicate) {
          const again = await send();
          duplicateStatusCode = again.statusCode;
          deps.log.info({ deliveryId: id, attempt: number, statusCode: again.statusCode, error: again.error }, 'webhook attempt duplicated (chaos)');
        }
      } catch (error) {
        if (error instanceof AttemptInterrupted) return;
        throw error;
      }
    }
    if (stopped) return;
    const current = await store.delivery(id);
    if (!current || current.status !== 'pending') return; // reset while the attempt was on the wire
    const endedAt = clock.now();
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    // Not kernel move(): the attempt is recorded once, by whichever dispatcher saves first; a lost
    // compare-and-set means another one recorded it, so nothing is decided again (see the return below).
    const status = transition(deliveryMachine, current.status, actionAfter(ok, number), { attempt: number }, {}, deps.defects);
    const record: DeliveryAttempt = {
      number,
      at: new Date(startedAt).toISOString(),
      statusCode: result.statusCode,
      error: result.error,
      durationMs: Math.round(performance.now() - started),
      signature: sentSignature,
      // Sandbox-defined: what chaos altered the attempt and how the receiver answered a duplicate, so a
      // client check can judge the receiver's answers from this record alone.
      ...(chaosOfAttempt(chaos).length > 0 ? { chaos: chaosOfAttempt(chaos) } : {}),
      ...(duplicateStatusCode !== undefined ? { duplicateStatusCode } : {}),
    };
    const saved = await store.updateDelivery({
      ...current,
      status,
      attempts: [...current.attempts, record],
      nextAttemptAt: status === 'pending' ? new Date(endedAt + deps.defects.at(WEBHOOKS_HOOKS.retryGapMs, RETRY_GAPS_MS[number - 1], { attempt: number })).toISOString() : null,
    });
    if (!saved) return; // another dispatcher recorded this attempt
    await deps.store.flush();
    deps.log.info({ deliveryId: id, jobId: saved.jobId, attempt: number, statusCode: result.statusCode, error: result.error, status }, 'webhook attempt');
    schedule(saved);
  }

  return {
    schedule,
    /** Resumes every pending delivery at its next attempt time (now or past: at once). */
    async start() {
      for (const delivery of await store.pending()) schedule(delivery);
      leases.start(async (id) => {
        const delivery = await store.delivery(id);
        if (delivery) schedule(delivery);
        else await leases.release(id);
      });
    },
    async stop() {
      stopped = true;
      leases.stop();
      // Another instance takes the deliveries waiting here at its next round instead of after their
      // leases' expiry; one under way is interrupted (not recorded: the taker sends the same attempt
      // number) and handed over once its attempt has let go.
      for (const cancel of scheduled.values()) cancel();
      const waiting = [...scheduled.keys()];
      scheduled.clear();
      await leases.handOver(...waiting);
      shutdown.abort();
      const interrupted = [...running.keys()];
      await Promise.allSettled([...running.values()]);
      await leases.handOver(...interrupted);
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
