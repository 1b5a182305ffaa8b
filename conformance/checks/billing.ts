// Billing setup (spec 4.1, 2.8): every call opens a new setup intent on the tenant's one payment customer
// ("creates or reuses the tenant payment customer"); the body is optional.
import { defineCheck } from '../harness/check.js';
import type { Exchange } from '../harness/types.js';

const PATH = '/api/public/billing/setup-session';

interface SetupSession {
  tenantId?: unknown;
  setupIntentId?: unknown;
  clientSecret?: unknown;
  paymentCustomerId?: unknown;
}

const mediaType = (exchange: Exchange) => (exchange.response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

export const billingSetupSession = defineCheck({
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

export const billingChecks = [billingSetupSession];
