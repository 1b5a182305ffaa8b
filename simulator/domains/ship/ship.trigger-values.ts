// Test values of the ship domain (simulator/TEST-VALUES.md): values an integrator chooses to get a known
// outcome, like a payment sandbox's test cards. Any other value behaves as the spec says.
import type { TestValue } from '../../kernel/test-values.js';

/**
 * Carrier codes with a built-in policy (spec 4.5 rule 4: a carrier policy such as manual_import_only blocks
 * claim actions). A tenant's own policy for the code (PUT /_sim/tenants/{id}/settings carrierPolicies) wins.
 */
export const TEST_CARRIER_POLICIES: Readonly<Record<string, string>> = { 'SIMTEST-MANUAL': 'manual_import_only' };

export const SHIP_TEST_VALUES: readonly TestValue[] = [
  {
    id: 'ship.carrier-manual-import-only',
    area: 'ship',
    value: 'carrier SIMTEST-MANUAL',
    effect: 'its policy is manual_import_only unless the tenant sets one: createClaimSubmission naming it is 409 ACTION_NOT_ALLOWED (subcode carrier_blocked)',
    operation: 'createClaimSubmission',
    test: 'simulator/control/test-values.test.ts',
  },
  ...(
    [
      ['duplicate_billing', 'duplicate', "the clean row's tracking number billed again on another invoice"],
      ['late_delivery', 'late', 'an overnight service delivered after its commit time'],
      ['dim_overbilling', 'dim', 'a 12 x 12 x 12 in, 4 lb box rated 20 lb'],
      ['discount_not_applied', 'rate', 'a 9 lb package billed above the contract band'],
      ['accessorial_not_in_agreement', 'accessorial', 'a Delivery Area Surcharge the agreement waives'],
      ['address_correction', 'address-correction', 'an address correction fee whose original address is the delivered one'],
      ['residential_misapplied', 'residential-commercial', 'a residential surcharge on an order whose recipient is commercial'],
    ] as const
  ).map(([type, row, why]) => ({
    id: `ship.finding.${type}`,
    area: 'ship',
    value: `the "${row}" row of fixtures/freight/sample-shipments.ts (in shipments-fedex.csv, shipments-ups.xlsx)`,
    effect: `the shipment upload raises a ${type} finding: ${why}`,
    operation: 'uploadShipFile',
    test: 'simulator/domains/ship/fixtures.over-http.test.ts',
  })),
];
