// Landed cost (spec 4.6 rules 1-7, 5.3; contracts/README.md decisions 11-13): each check asserts one
// rule the spec names, never a sandbox-defined value (duty amounts, authority values, the de minimis
// structure beyond `skipped`, trust beyond the two levels the spec names), except in the simulator profile:
// the breakdown check, and the de minimis check's reading of rule 3's "no exemption" on `exempt`.
//
//   quote.ts             the operation and its base request, the check's tenant, sending quotes, reading results
//   rules-provider.ts    landed-cost.provider-with-quantity-rejected (rule 1), landed-cost.non-usd-skips-provider (rule 2)
//   rules-de-minimis.ts  landed-cost.de-minimis-currency-mismatch (rule 3)
//   rules-eu-trust.ts    landed-cost.eu-trust-gate (rule 4)
//   corridor.ts          landed-cost.unconfigured-corridor (rule 5)
//   rules-authority.ts   landed-cost.authority-follows-destination, landed-cost.unsupported-expression (rule 6)
//   quantity.ts          landed-cost.quantity-kept (the request's quantity, kept as given)
//   breakdown.ts         landed-cost.breakdown-consistent (rule 8's sandbox-defined breakdown; simulator profile only)
//   legacy.ts            landed-cost.legacy-alias-hint, landed-cost.deprecation-hint-format (rule 7),
//                        landed-cost.legacy-pair-off-by-default (5.3)
//   shipping-default.ts  landed-cost.shipping-default-zero (request fields: shippingCost defaults to 0)
import type { Check } from '../../harness/check.js';
import { breakdownConsistent } from './breakdown.js';
import { quantityKept } from './quantity.js';
import { unconfiguredCorridor } from './corridor.js';
import { deprecationHintFormat, legacyAliasHint, legacyPairOffByDefault } from './legacy.js';
import { deMinimisCurrencyMismatch } from './rules-de-minimis.js';
import { euTrustGate } from './rules-eu-trust.js';
import { authorityFollowsDestination, unsupportedExpression } from './rules-authority.js';
import { nonUsdSkipsProvider, providerWithQuantityRejected } from './rules-provider.js';
import { shippingDefaultZero } from './shipping-default.js';

export const landedCostChecks: Check[] = [
  providerWithQuantityRejected,
  nonUsdSkipsProvider,
  deMinimisCurrencyMismatch,
  euTrustGate,
  unconfiguredCorridor,
  authorityFollowsDestination,
  unsupportedExpression,
  breakdownConsistent,
  quantityKept,
  legacyAliasHint,
  deprecationHintFormat,
  legacyPairOffByDefault,
  shippingDefaultZero,
];
