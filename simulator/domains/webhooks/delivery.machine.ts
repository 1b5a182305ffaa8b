// The delivery lifecycle (spec 6 delivery rules 1 and 3): pending until a 2xx, or failed after the 4th
// failed attempt; no manual retry exists, so both ends are terminal (a sandbox redelivery, deliveries.ts, is a new delivery).
import { defineMachine } from '../../kernel/machine.js';
import type { DeliveryStatus } from './webhooks.types.js';

export type DeliveryAction = 'succeed' | 'retry' | 'give_up';

/** spec 6 rule 3: up to 4 attempts. */
export const MAX_ATTEMPTS = 4;
/** spec 6 rule 3 and decision 9: waits after attempts 1, 2 and 3 failed, on the virtual clock. */
export const RETRY_GAPS_MS = [30_000, 120_000, 600_000] as const;
/** spec 6 rule 2. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export const deliveryMachine = defineMachine<DeliveryStatus, DeliveryAction, { attempt: number }>({
  name: 'webhook delivery',
  states: ['pending', 'delivered', 'failed'],
  terminal: ['delivered', 'failed'],
  transitions: [
    { from: ['pending'], action: 'succeed', to: 'delivered' },
    { from: ['pending'], action: 'retry', to: 'pending', guard: ({ attempt }) => (attempt < MAX_ATTEMPTS ? undefined : `no retry after attempt ${MAX_ATTEMPTS}`) },
    { from: ['pending'], action: 'give_up', to: 'failed' },
  ],
});

/** What a finished attempt does to its delivery. */
export const actionAfter = (ok: boolean, attempt: number): DeliveryAction => (ok ? 'succeed' : attempt < MAX_ATTEMPTS ? 'retry' : 'give_up');
