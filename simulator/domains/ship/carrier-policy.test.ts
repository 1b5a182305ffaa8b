// One carrier-policy look-up for claims, finding moves and what a finding explains (issue 25: there were two,
// with different rules: the claim side ignored an upper-cased code, the finding side the test carriers).
import { describe, expect, it } from 'vitest';
import { carrierPolicyOf } from './carrier-policy.js';

describe('carrierPolicyOf', () => {
  it("reads the tenant's policy for the code as given, then upper-cased", () => {
    expect(carrierPolicyOf({ UPS: { policy: 'manual_import_only' } }, 'UPS')).toBe('manual_import_only');
    expect(carrierPolicyOf({ UPS: { policy: 'manual_import_only' } }, 'ups')).toBe('manual_import_only');
  });

  it("falls back to a test carrier's built-in policy, which the tenant's own policy overrides", () => {
    expect(carrierPolicyOf({}, 'SIMTEST-MANUAL')).toBe('manual_import_only');
    expect(carrierPolicyOf(undefined, 'simtest-manual')).toBe('manual_import_only');
    expect(carrierPolicyOf({ 'SIMTEST-MANUAL': { policy: 'api' } }, 'SIMTEST-MANUAL')).toBe('api');
  });

  it('answers null for a carrier without a policy', () => {
    expect(carrierPolicyOf({}, 'FEDEX')).toBeNull();
  });
});
