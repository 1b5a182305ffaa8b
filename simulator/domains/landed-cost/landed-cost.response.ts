// The one place the unconfigured-corridor outcome is shaped (spec 4.6 rule 5), exactly as the spec writes
// it: a business outcome, not an engine status, with nothing else beside it.
import type { LandedCostResponse } from './landed-cost.types.js';

export const unconfiguredCorridor = (originCountry: string, destinationCountry: string): LandedCostResponse => ({
  authority: 'internal',
  status: 'unconfigured_corridor',
  breakdown: null,
  reason: 'no_enabled_matching_corridor',
  metadata: { policyMode: 'configured', originCountry, destinationCountry, corridorConfigured: false },
});
