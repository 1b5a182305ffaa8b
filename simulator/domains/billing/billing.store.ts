// The sandbox's fictional payment processor: customers and setup intents. The only file that touches the
// `paymentCustomers` and `billingSetupIntents` collections. Identifiers look like a processor's
// (`cus_...`, `seti_..._secret_...`) but carry `sbx` so they can never be mistaken for real ones.
import type { KernelDeps } from '../../kernel/deps.js';
import type { IdGenerator } from '../../kernel/ids.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import type { PaymentCustomer, SetupIntent } from './billing.types.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Alphanumeric, as processor ids are (base64url's `-` and `_` would blur the `_secret_` separator). */
function alphanumeric(ids: IdGenerator, length: number): string {
  return [...Buffer.from(ids.secret(length), 'base64url').subarray(0, length)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

export function billingStore(deps: KernelDeps) {
  const customers = deps.store.collection<PaymentCustomer, 'tenantId'>('paymentCustomers', { fields: { tenantId: (c) => c.tenantId }, indexes: { byTenant: { keys: ['tenantId'] } } });
  const intents = deps.store.collection<SetupIntent, 'tenantId' | 'createdAt'>('billingSetupIntents', {
    fields: { tenantId: (i) => i.tenantId, createdAt: (i) => i.createdAt },
    indexes: { byTenant: { keys: ['tenantId'], order: [['createdAt', 'asc']] } },
  });
  return {
    customer: (id: string) => customers.get(id),
    /** A customer with a given id (the tenant already names it) or a new id. */
    async putCustomer(input: { id?: string; tenantId: string; email: string | null }): Promise<PaymentCustomer> {
      const now = deps.clocks.of(input.tenantId).nowIso();
      const existing = input.id ? await customers.get(input.id) : undefined;
      return customers.put({
        id: input.id ?? `cus_sbx_${alphanumeric(deps.ids, 14)}`,
        tenantId: input.tenantId,
        email: input.email,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      });
    },
    async createSetupIntent(input: { tenantId: string; paymentCustomerId: string; billingEmail: string | null }): Promise<{ intent: SetupIntent; clientSecret: string }> {
      const id = `seti_sbx_${alphanumeric(deps.ids, 14)}`;
      // The client secret goes to the caller once (it is what a browser form confirms with); nothing in
      // the sandbox reads it back, so it is not kept.
      const clientSecret = `${id}_secret_${alphanumeric(deps.ids, 24)}`;
      const intent = await intents.put({ id, ...input, status: 'requires_payment_method', createdAt: deps.clocks.of(input.tenantId).nowIso() });
      return { intent, clientSecret };
    },
    intentsOf: async (tenantId: string) => (await intents.query({ where: { tenantId } })).items,
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by their indexes. */
    purgeTenant: async (tenantId: string) => (await deleteMatching(intents, { tenantId })) + (await deleteMatching(customers, { tenantId })),
  };
}

export type BillingStore = ReturnType<typeof billingStore>;
