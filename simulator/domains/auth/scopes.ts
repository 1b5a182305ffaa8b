// Scope names of the sandbox. Spec 5.4: scopes ride in the JWT claims and the full list is "not shown", so
// these names are the sandbox's; the one the spec names and enforces is `ship:upload` (carrier agreements).
export const ALL_SCOPES: string[] = [
  'jobs:read',
  'sima:read',
  'sima:write',
  'trade:read',
  'trade:write',
  'ship:read',
  'ship:write',
  'ship:upload',
  'landed-cost:write',
  'billing:write',
];
