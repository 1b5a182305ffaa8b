import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../contracts/lib/bundle.js';
import { listOperations } from '../../../contracts/lib/operations.js';
import type { RequestBody } from '../../../contracts/generated/index.js';
import { createContractSchemas } from '../../../contracts/lib/schemas.js';
import { ApiError } from '../../kernel/errors.js';
import type { HandlerRequest, Principal } from '../../kernel/http/types.js';
import { createTestDeps } from '../../testing/kernel.js';
import { tenantStore, type Tenant } from '../tenants/index.js';
import { createBilling, type PaymentCustomer, type SetupIntent } from './index.js';

const doc = loadContract('v1.3.0');
const op = listOperations(doc).find((o) => o.operationId === 'createBillingSetupSession')!;
const schemas = createContractSchemas(doc);

async function fixture() {
  const deps = await createTestDeps();
  const tenants = tenantStore(deps);
  const billing = createBilling(deps, { tenants });
  const principalOf = (tenant: Tenant): Principal => ({ type: 'integration', tenantId: tenant.id, keyId: deps.ids.uuid(), scopes: [], allowedAdapters: null, defaultAdapter: null });
  const setup = async (tenant: Tenant, body?: RequestBody<'createBillingSetupSession'>) => {
    const request: HandlerRequest<'createBillingSetupSession'> = { operation: op, contractVersion: 'v1.3.0', requestId: 'test', principal: principalOf(tenant), params: {}, query: {}, headers: {}, body, files: [] };
    return billing.handlers.createBillingSetupSession!(request);
  };
  return { deps, tenants, billing, setup };
}

type SetupBody = { tenantId: string; setupIntentId: string; clientSecret: string; paymentCustomerId: string };

describe('billing setup session (spec 4.1, 2.8)', () => {
  it('answers 201 with the four fields of the contract, in processor-like but fictional form', async () => {
    const { tenants, setup } = await fixture();
    const tenant = await tenants.create();
    const response = await setup(tenant, { billingEmail: 'ap@northwind-imports.example' });
    expect(response.status).toBe(201);
    expect(schemas.component('BillingSetupResponse')(response.body)).toBe(true);
    const body = response.body as SetupBody;
    expect(body.tenantId).toBe(tenant.id);
    expect(body.paymentCustomerId).toMatch(/^cus_sbx_[A-Za-z0-9]+$/);
    expect(body.setupIntentId).toMatch(/^seti_sbx_[A-Za-z0-9]+$/);
    expect(body.clientSecret).toMatch(new RegExp(`^${body.setupIntentId}_secret_[A-Za-z0-9]+$`));
  });

  it('creates the payment customer on the first call, records it on the tenant, and reuses it afterwards', async () => {
    const { tenants, setup } = await fixture();
    const tenant = await tenants.create();
    expect(tenant.paymentCustomerId).toBeNull();
    const first = (await setup(tenant)).body as SetupBody;
    expect((await tenants.get(tenant.id))!.paymentCustomerId).toBe(first.paymentCustomerId);
    const second = (await setup((await tenants.get(tenant.id))!, { billingEmail: 'billing@northwind-imports.example' })).body as SetupBody;
    expect(second.paymentCustomerId).toBe(first.paymentCustomerId);
    expect(second.setupIntentId).not.toBe(first.setupIntentId);
    expect(second.clientSecret).not.toBe(first.clientSecret);
  });

  it('keeps one payment customer per tenant', async () => {
    const { tenants, setup } = await fixture();
    const a = await tenants.create({ name: 'A' });
    const b = await tenants.create({ name: 'B' });
    const forA = (await setup(a)).body as SetupBody;
    const forB = (await setup(b)).body as SetupBody;
    expect(forB.paymentCustomerId).not.toBe(forA.paymentCustomerId);
    expect(((await setup((await tenants.get(a.id))!)).body as SetupBody).paymentCustomerId).toBe(forA.paymentCustomerId);
    expect((await tenants.get(b.id))!.paymentCustomerId).toBe(forB.paymentCustomerId);
  });

  it('links one payment customer when two first calls for a tenant race', async () => {
    const { tenants, setup } = await fixture();
    const tenant = await tenants.create();
    const [a, b] = await Promise.all([setup(tenant), setup(tenant)]);
    const linked = (await tenants.get(tenant.id))!.paymentCustomerId;
    expect((a.body as SetupBody).paymentCustomerId).toBe(linked);
    expect((b.body as SetupBody).paymentCustomerId).toBe(linked);
  });

  it('keeps the billing email on the customer: set on creation, replaced when given again, kept when omitted', async () => {
    const { deps, tenants, setup } = await fixture();
    const tenant = await tenants.create();
    const { paymentCustomerId } = (await setup(tenant, { billingEmail: 'ap@northwind-imports.example' })).body as SetupBody;
    const customers = deps.store.collection<PaymentCustomer>('paymentCustomers');
    expect((await customers.get(paymentCustomerId))!.email).toBe('ap@northwind-imports.example');
    await setup((await tenants.get(tenant.id))!);
    expect((await customers.get(paymentCustomerId))!.email).toBe('ap@northwind-imports.example');
    await setup((await tenants.get(tenant.id))!, { billingEmail: 'billing@northwind-imports.example' });
    expect((await customers.get(paymentCustomerId))!.email).toBe('billing@northwind-imports.example');
  });

  it('keeps every setup intent of the tenant, each tied to the one customer', async () => {
    const { deps, tenants, setup } = await fixture();
    const tenant = await tenants.create();
    const bodies = [(await setup(tenant)).body as SetupBody, (await setup((await tenants.get(tenant.id))!)).body as SetupBody];
    const collection = deps.store.collection<SetupIntent, 'tenantId'>('billingSetupIntents');
    const intents = (await collection.query({ where: { tenantId: tenant.id } })).items;
    expect(await collection.count()).toBe(intents.length); // the tenant's intents are every intent in the store
    expect(intents.map((i) => i.id).sort()).toEqual(bodies.map((b) => b.setupIntentId).sort());
    expect(new Set(intents.map((i) => i.paymentCustomerId))).toEqual(new Set([bodies[0].paymentCustomerId]));
  });

  it('refuses a tenant that is not active with 403 PRINCIPAL_DENIED and creates no customer', async () => {
    const { tenants, setup } = await fixture();
    const tenant = await tenants.create();
    const suspended = (await tenants.update(tenant.id, (t) => ({ ...t, status: 'suspended' })))!;
    const error = await Promise.resolve()
      .then(() => setup(suspended))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: 'PRINCIPAL_DENIED', details: { required: 'active', actual: 'suspended' } });
    expect((await tenants.get(tenant.id))!.paymentCustomerId).toBeNull();
  });
});
