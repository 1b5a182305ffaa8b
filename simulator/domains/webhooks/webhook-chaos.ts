// Webhook chaos of one tenant (sandbox-defined, off by default; PUT /_sim/tenants/{id}/faults): ways a real
// network and a real at-least-once sender misbehave that a receiver must survive (spec 6: deliveries are
// retried, so the same delivery id can arrive twice; signatures and timestamps are the receiver's to verify).
// Only this domain means it: the kernel keeps it among a tenant's fault settings under WEBHOOK_CHAOS_KEY
// without knowing what it is (kernel/defects.ts `TenantFaults`), and this file builds and reads it.
import type { Defects, TenantFaults } from '../../kernel/defects.js';

export interface WebhookChaos {
  /** Every attempt is sent twice, back to back, with the same delivery id, body and signature. */
  duplicate: boolean;
  /** Deliveries are held and sent in pairs, the newer first (a lone delivery goes after the hold). */
  reorder: boolean;
  /** Seconds (tenant virtual clock) between a job's end and the first attempt of its delivery. */
  delaySeconds: number;
  /** The signature does not verify (HMAC over the body alone, like the webhooks.bad-signature defect). */
  badSignature: boolean;
  /** The timestamp (and the signature over it) is OLD_TIMESTAMP_SECONDS before the attempt. */
  oldTimestamp: boolean;
  /** The right digest under another scheme's prefix (`v0=`): only a receiver that checks `v1=` refuses it
   *  (spec 6: "Receivers should check the `v1=` prefix"). */
  wrongPrefix: boolean;
}

const NO_CHAOS: Readonly<WebhookChaos> = Object.freeze({ duplicate: false, reorder: false, delaySeconds: 0, badSignature: false, oldTimestamp: false, wrongPrefix: false });

/** How old an `oldTimestamp` delivery's timestamp is: well past any replay window a receiver keeps (10 min). */
export const OLD_TIMESTAMP_SECONDS = 600;

/** The key of the chaos among a tenant's fault settings (also the control API's member name). */
export const WEBHOOK_CHAOS_KEY = 'webhookChaos';

/**
 * The setting to keep for what the control API was given (members left out are off): undefined when it
 * changes nothing, so a tenant with no defect and no chaos keeps no faults at all.
 */
export function webhookChaosSetting(given: Partial<WebhookChaos> | undefined): WebhookChaos | undefined {
  const chaos = { ...NO_CHAOS, ...given };
  return Object.entries(chaos).every(([key, value]) => value === NO_CHAOS[key as keyof WebhookChaos]) ? undefined : chaos;
}

/** A tenant's chaos read from its faults (the control API's answer): every member, the unset ones off. */
export const webhookChaosIn = (faults: TenantFaults): WebhookChaos => ({ ...NO_CHAOS, ...(faults.settings[WEBHOOK_CHAOS_KEY] as Partial<WebhookChaos> | undefined) });

/** The chaos of a tenant's deliveries now (background work names the tenant). */
export const webhookChaosOf = (defects: Pick<Defects, 'tenantSetting'>, tenantId: string): WebhookChaos => ({
  ...NO_CHAOS,
  ...(defects.tenantSetting(WEBHOOK_CHAOS_KEY, tenantId) as Partial<WebhookChaos> | undefined),
});

/** The chaos members that altered one attempt as sent, for its record (the deliveries the control API lists). */
export const chaosOfAttempt = (chaos: WebhookChaos): string[] =>
  (['badSignature', 'wrongPrefix', 'oldTimestamp', 'duplicate'] as const).filter((member) => chaos[member]);

/** The header's prefix under chaos `wrongPrefix`: a scheme the spec does not define. */
export const WRONG_SIGNATURE_PREFIX = 'v0=';
