// Provider comparison (spec 4.6 rules 1-2). `provider` names a tenant-scoped external comparison; the
// sandbox has no external provider, so its comparison source is deterministic: the provider quotes the
// same duty and taxes and adds a broker's handling charge of 0.1 % of the product value (the contract's
// example: 1,200 USD of T-shirts, provider total 1,561.20 against 1,560.00). It runs only when `currency`
// is USD (rule 2); otherwise the internal result carries `providerSkipReason: non_usd_corridor`.
import type { Schema } from '../../../contracts/generated/index.js';
import { NO_DEFECTS } from '../../kernel/defects.js';
import { LANDED_COST_HOOKS, type QuoteDeviations } from './landed-cost.hooks.js';
import { round2, sum2 } from '../../kernel/numbers.js';

/** The sandbox provider's handling charge, as a share of the product value. */
const PROVIDER_HANDLING_RATE = 0.001;

export interface ProviderOutcome {
  providerSkipReason: 'non_usd_corridor' | null;
  providerComparison: Schema<'LandedCostProviderComparison'> | null;
}

export function compareWithProvider(
  request: { provider: string | null; currency: string | null; productValue: number },
  internal: { dutyAmount: number; totalLandedCost: number } | null,
  deviations: QuoteDeviations = NO_DEFECTS,
): ProviderOutcome {
  if (request.provider === null) return { providerSkipReason: null, providerComparison: null };
  const runs = request.currency === 'USD' || !deviations.at(LANDED_COST_HOOKS.providerUsdOnly, true);
  if (!runs) return { providerSkipReason: 'non_usd_corridor', providerComparison: null };
  // Nothing to compare without an internal quote (rate_not_available).
  if (internal === null) return { providerSkipReason: null, providerComparison: null };
  const handling = round2(request.productValue * PROVIDER_HANDLING_RATE);
  const totalLandedCost = sum2([internal.totalLandedCost, handling]);
  return {
    providerSkipReason: null,
    providerComparison: { provider: request.provider, dutyAmount: internal.dutyAmount, totalLandedCost, currency: request.currency ?? 'USD', difference: sum2([totalLandedCost, -internal.totalLandedCost]) },
  };
}
