// POST /api/public/billing/setup-session (spec 4.1, 2.8). The authenticator already refused anything but
// an integration principal (403 PRINCIPAL_DENIED, `x-principal-types`). The tenant's payment customer is
// created on the first call and reused on every later one; each call opens a new setup intent.
import { ApiError, invalidToken } from '../../kernel/errors.js';
import { NO_DEFECTS, type Defects } from '../../kernel/defects.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { TenantStore } from '../tenants/index.js';
import type { BillingStore } from './billing.store.js';
import { BILLING_HOOKS } from './billing.hooks.js';

export function setupSessionRoutes(billing: BillingStore, tenants: TenantStore, defects: Defects = NO_DEFECTS) {
  return {
    async createBillingSetupSession(request) {
      const tenant = await tenants.get(request.principal.tenantId);
      if (!tenant) throw invalidToken("bearer token's tenant no longer exists");
      // Spec 4.1: "tenant must be active". The operation documents 403 with PRINCIPAL_DENIED only: a
      // principal of an inactive tenant is a principal not allowed to set up billing.
      if (tenant.status !== 'active' && defects.at(BILLING_HOOKS.activeTenantRequired, true)) {
        throw new ApiError('PRINCIPAL_DENIED', `the tenant is ${tenant.status}; billing setup requires an active tenant`, {
          required: 'active',
          actual: tenant.status,
          subject: 'tenantStatus',
        });
      }
      const billingEmail = request.body?.billingEmail ?? null;

      let paymentCustomerId = tenant.paymentCustomerId;
      if (!defects.at(BILLING_HOOKS.customerReused, true)) {
        // A customer that is not reused: a new one for this call, linked to the tenant in place of its own.
        paymentCustomerId = (await billing.putCustomer({ tenantId: tenant.id, email: billingEmail })).id;
        await tenants.update(tenant.id, (t) => ({ ...t, paymentCustomerId }));
      } else if (paymentCustomerId === null) {
        const created = (await billing.putCustomer({ tenantId: tenant.id, email: billingEmail })).id;
        // Compare-and-set: when a concurrent first call linked its customer first, that one is the tenant's.
        const linked = await tenants.update(tenant.id, (t) => (t.paymentCustomerId === null ? { ...t, paymentCustomerId: created } : t));
        paymentCustomerId = linked?.paymentCustomerId ?? created;
      } else {
        // Reuse; a new billing email replaces the customer's, an omitted one keeps it.
        const customer = await billing.customer(paymentCustomerId);
        if (!customer || (billingEmail !== null && billingEmail !== customer.email)) {
          await billing.putCustomer({ id: paymentCustomerId, tenantId: tenant.id, email: billingEmail ?? customer?.email ?? null });
        }
      }

      const { intent, clientSecret } = await billing.createSetupIntent({ tenantId: tenant.id, paymentCustomerId, billingEmail });
      return {
        status: 201,
        body: { tenantId: tenant.id, setupIntentId: intent.id, clientSecret, paymentCustomerId },
      };
    },
  } satisfies HandlerTable;
}
