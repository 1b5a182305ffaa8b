// Billing setup (spec 4.1, 2.8): every call opens a new setup intent on the tenant's one payment customer
// ("creates or reuses the tenant payment customer"); the body is optional.
import { defineCheck } from '../harness/check.js';
import type { Exchange } from '../harness/types.js';
import { expectError } from '../harness/expect-error.js';

const PATH = '/api/public/billing/setup-session';

interface SetupSession {
  tenantId?: unknown;
  setupIntentId?: unknown;
  clientSecret?: unknown;
  paymentCustomerId?: unknown;
}

const mediaType = (exchange: Exchange) => (exchange.response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

const billingSetupSession = defineCheck({
  id: 'billing.setup-session',
  title: "Billing setup answers 201 JSON sessions that reuse the tenant's payment customer",
  area: 'billing',
  needs: ['writes'],
  async run(ctx) {
    const calls: Array<[string, Exchange]> = [
      ['with an empty body', await ctx.client.call('POST', PATH, { json: {} })],
      ['without a body', await ctx.client.call('POST', PATH)],
    ];
    let ok = true;
    for (const [what, exchange] of calls) {
      ok = ctx.expect(exchange.response.status === 201, 'billing-setup-status', `billing setup ${what} answered ${exchange.response.status}, not 201 (spec 4.1)`, exchange) && ok;
      ok = ctx.expect(mediaType(exchange) === 'application/json', 'billing-setup-content-type', `billing setup ${what} answered content type ${mediaType(exchange) || '(none)'}, not application/json`, exchange) && ok;
    }
    if (!ok) return;
    const [first, second] = calls.map(([, exchange]) => exchange.response.body as SetupSession);
    const secondExchange = calls[1][1];
    ctx.expect(first.tenantId === second.tenantId, 'billing-setup-tenant', `the two sessions name different tenants (${String(first.tenantId)}, ${String(second.tenantId)})`, secondExchange);
    // Spec 2.8: `tenantId` is the tenant's: the one the SIMA JSON report names for the same caller (spec 2.4
    // "JSON report: tenantId uuid", the only other place the spec gives a tenant its id).
    const report = await ctx.client.call('GET', '/api/sima/report?format=json');
    const reported = (report.response.body as { tenantId?: unknown } | null)?.tenantId;
    if (report.response.status === 200 && typeof reported === 'string') {
      ctx.expect(first.tenantId === reported, 'billing-setup-tenant', `the billing session names tenant ${String(first.tenantId)}, but the caller's SIMA report names its tenant ${reported} (spec 2.8: the tenant's id)`, calls[0][1]);
    }
    ctx.expect(
      typeof first.paymentCustomerId === 'string' && first.paymentCustomerId === second.paymentCustomerId,
      'billing-customer-reused',
      `the second session has payment customer ${String(second.paymentCustomerId)}, not the tenant's ${String(first.paymentCustomerId)} (spec 4.1: creates or reuses the tenant payment customer)`,
      secondExchange,
    );
    ctx.expect(
      typeof first.setupIntentId === 'string' && first.setupIntentId !== second.setupIntentId,
      'billing-new-setup-intent',
      `both sessions carry setup intent ${String(first.setupIntentId)}; each setup session is a new one`,
      secondExchange,
    );
  },
});

// Spec 4.1: billing setup requires an active tenant. The spec states the rule, not its answer: any refusal
// passes the rule; the code is the sandbox's (the operation documents 403 PRINCIPAL_DENIED as its only
// refusal besides 401), checked here because suspending a tenant needs the control API (simulator profile).
const billingInactiveTenant = defineCheck({
  id: 'billing.inactive-tenant',
  title: 'Billing setup refuses an integration principal of a suspended tenant',
  area: 'billing',
  needs: ['admin', 'writes'],
  async run(ctx) {
    const suspended = await ctx.admin!.createTenant({ name: 'Conformance suspended tenant', status: 'suspended' });
    const refused = await ctx.client.withApiKey(suspended.integrationKey).call('POST', PATH);
    const what = 'billing setup with the integration token of a suspended tenant';
    if (!ctx.expect(refused.response.status >= 400 && refused.response.status < 500, 'billing-inactive-tenant-refused', `${what} answered ${refused.response.status}, not a refusal (spec 4.1: tenant must be active)`, refused)) return;
    expectError(ctx, refused, 403, 'PRINCIPAL_DENIED', `${what} (the sandbox's answer)`);
  },
});

export const billingChecks = [billingSetupSession, billingInactiveTenant];
