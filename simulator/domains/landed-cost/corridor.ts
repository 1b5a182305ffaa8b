// Configured mode (spec 4.6 rule 5). A tenant without quote-corridor rows quotes every corridor
// (`policyMode: unrestricted`, sandbox-defined). With rows, only an enabled row matching the corridor lets
// the engine run: the exact (originCountry, destinationCountry) row first, else the wildcard-origin row
// ('*') of the destination. A disabled row matches nothing, so a disabled exact row leaves the wildcard to
// decide ("no enabled matching corridor" is the reason when neither is enabled).
import { NO_DEFECTS } from '../../kernel/defects.js';
import type { TenantSettings } from '../tenants/index.js';
import { LANDED_COST_HOOKS, type QuoteDeviations } from './landed-cost.hooks.js';

export type QuoteCorridor = TenantSettings['quoteCorridors'][number];

const WILDCARD_ORIGIN = '*';

export type CorridorResolution =
  | { policyMode: 'unrestricted'; corridor: null }
  | { policyMode: 'configured'; corridor: QuoteCorridor | null };

export function resolveCorridor(corridors: readonly QuoteCorridor[], originCountry: string, destinationCountry: string, deviations: QuoteDeviations = NO_DEFECTS): CorridorResolution {
  if (!corridors.length) return { policyMode: 'unrestricted', corridor: null };
  // An absent `enabled` is the control API's default (true).
  const enabled = corridors.filter((c) => c.enabled !== false && c.destinationCountry === destinationCountry);
  const exact = enabled.find((c) => c.originCountry === originCountry);
  const wildcard = enabled.find((c) => c.originCountry === WILDCARD_ORIGIN);
  const fallback = !exact && wildcard && deviations.at(LANDED_COST_HOOKS.wildcardOriginFallback, true) ? wildcard : null;
  return { policyMode: 'configured', corridor: exact ?? fallback };
}
