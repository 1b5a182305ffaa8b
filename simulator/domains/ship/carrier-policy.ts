// The one look-up of a carrier's policy (spec 4.5 rule 4: a policy such as manual_import_only blocks claim
// actions), for claim creation and submit, the carrier-facing finding moves and what a finding explains
// (claimEligibility, claimBlockerReason): the tenant's own policy for the code (PUT /_sim/tenants/{id}/settings
// carrierPolicies; the code as given or upper-cased), else a test carrier's built-in one (ship.trigger-values.ts).
import type { TenantSettings } from '../tenants/index.js';
import { TEST_CARRIER_POLICIES } from './ship.trigger-values.js';

export type CarrierPolicies = TenantSettings['carrierPolicies'];

export const carrierPolicyOf = (policies: CarrierPolicies | undefined, carrier: string): string | null =>
  policies?.[carrier]?.policy ?? policies?.[carrier.toUpperCase()]?.policy ?? TEST_CARRIER_POLICIES[carrier.toUpperCase()] ?? null;
