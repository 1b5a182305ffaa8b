// POST /api/trade/landed-cost (spec 4.6), typed by the contract: the body arrives validated (required fields,
// country and currency shapes, quantity with quantityUnit, rule 1's provider without quantity), and the
// principal authenticated (integration or dashboard bearer, or the legacy pair when ALLOW_API_KEY_FALLBACK is
// on: auth/authenticate.ts). Here: aliases (rule 7) -> what the contract cannot say (ISO 4217, no negative
// amounts) -> corridor (rule 5) -> engine on the tenant's clock date -> billable usage -> respond.
import type { KernelDeps } from '../../kernel/deps.js';
import { invalidRequest } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { TenantStore } from '../tenants/index.js';
import { resolveCorridor } from './corridor.js';
import { quoteLandedCost } from './engine.js';
import { unconfiguredCorridor } from './landed-cost.response.js';
import type { LandedCostRequest, LegacyAlias, QuoteInput } from './landed-cost.types.js';
import { LANDED_COST_HOOKS, type QuoteDeviations } from './landed-cost.hooks.js';
import { deprecationHint, detectAliases } from './legacy-aliases.js';
import type { ReferenceData } from './reference-data.js';
import type { UsageStore } from './usage.store.js';

/** The canonical request (aliases dropped), with the checks the contract's schema cannot express. */
function quoteInput(body: LandedCostRequest, data: ReferenceData, deviations: QuoteDeviations): QuoteInput {
  for (const field of ['productValue', 'shippingCost', 'insurance'] as const) {
    const value = body[field];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) throw invalidRequest(`${field} must be a non-negative amount`, field);
  }
  // spec 4.6: a 3-letter ISO 4217 code; the contract checks the shape, the ISO list the code.
  if (body.currency !== undefined && !data.isCurrency(body.currency)) throw invalidRequest(`currency ${body.currency} is not an ISO 4217 currency code`, 'currency');
  // The contract's dependentRequired and not-required already refused a lone quantity or quantityUnit and
  // provider with quantity (rule 1); restated so the handler never quotes half a quantity or both.
  if ((body.quantity === undefined) !== (body.quantityUnit === undefined)) throw invalidRequest('quantity and quantityUnit must be given together', 'quantityUnit');
  if (body.provider !== undefined && body.quantity !== undefined) throw invalidRequest('provider comparison is only available for value-only requests; remove provider or quantity', 'provider');
  return {
    productValue: body.productValue,
    hsCode: body.hsCode,
    originCountry: body.originCountry,
    destinationCountry: body.destinationCountry,
    shippingCost: body.shippingCost ?? deviations.at(LANDED_COST_HOOKS.shippingCostDefault, 0),
    insurance: body.insurance ?? 0,
    currency: body.currency ?? null,
    quantity: body.quantity ?? null,
    quantityUnit: body.quantityUnit ?? null,
    provider: body.provider ?? null,
  };
}

export function landedCostRoutes(deps: KernelDeps, ctx: { tenants: TenantStore; data: ReferenceData; aliases: readonly LegacyAlias[]; usage: UsageStore }) {
  const { tenants, data, aliases, usage } = ctx;
  return {
    async calculateLandedCost({ principal, body, requestId }) {
      const tenantId = principal.tenantId;
      // spec 4.6 rule 7: aliases detected and dropped, never rejected.
      const aliasing = detectAliases(body as Record<string, unknown>, aliases, deps.defects);
      const headers: Record<string, string> = {};
      if (aliasing.flagged.length) {
        headers['X-Deprecation-Hint'] = deps.defects.at(LANDED_COST_HOOKS.deprecationHint, deprecationHint(aliasing.flagged), aliasing.flagged);
        deps.log.warn({ requestId, tenantId, aliases: aliasing.flagged.map((a) => a.alias) }, 'landed-cost request used legacy field aliases (dropped; X-Deprecation-Hint sent)');
      }
      const quoted = quoteInput(aliasing.body as LandedCostRequest, data, deps.defects);
      const input = { ...quoted, quantity: deps.defects.at(LANDED_COST_HOOKS.quantityQuoted, quoted.quantity) };

      // spec 4.6 rule 5: configured mode.
      const settings = await tenants.settings(tenantId);
      const resolution = resolveCorridor(settings.quoteCorridors, input.originCountry, input.destinationCountry, deps.defects);
      if (resolution.policyMode === 'configured' && resolution.corridor === null && deps.defects.at(LANDED_COST_HOOKS.unconfiguredCorridorRefused, true)) {
        // A warning-style observation, no billable usage.
        deps.log.warn({ requestId, tenantId, originCountry: input.originCountry, destinationCountry: input.destinationCountry }, 'landed-cost quote for a corridor without an enabled match (unconfigured_corridor)');
        return { status: 200, body: unconfiguredCorridor(input.originCountry, input.destinationCountry), headers };
      }

      const date = deps.clocks.of(tenantId).nowIso().slice(0, 10);
      const policy = { policyMode: resolution.policyMode, corridorConfigured: resolution.corridor !== null };
      const result = quoteLandedCost(input, { date, data, policy, defects: deps.defects });
      if (result.status === 'authoritative' || result.status === 'rate_not_available') {
        await usage.record({
          tenantId,
          operationId: 'calculateLandedCost',
          status: result.status,
          hsCode: input.hsCode,
          originCountry: input.originCountry,
          destinationCountry: input.destinationCountry,
          currency: input.currency,
          principalType: principal.type,
          keyId: principal.keyId,
          requestId,
        });
      }
      return { status: 200, body: result, headers };
    },
  } satisfies HandlerTable;
}
