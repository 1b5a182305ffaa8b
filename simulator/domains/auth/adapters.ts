// Spec 5.4 and 4.3: an integration key may carry an adapter allowlist, checked on `adapter_id` of the ship
// upload. A key without an allowlist (null), and a dashboard principal, may use any adapter.
import { NO_DEFECTS, type Defects } from '../../kernel/defects.js';
import { ApiError } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/http/types.js';
import { AUTH_HOOKS } from './auth.hooks.js';

/** Throws 403 ADAPTER_NOT_ALLOWED when `adapterId` is given and not in the principal's allowlist. */
export function assertAdapterAllowed(principal: Principal, adapterId: string | null | undefined, deviations: Pick<Defects, 'at'> = NO_DEFECTS): void {
  if (adapterId === undefined || adapterId === null || adapterId === '') return;
  if (principal.allowedAdapters === null || principal.allowedAdapters.includes(adapterId)) return;
  if (!deviations.at(AUTH_HOOKS.adapterAllowlistEnforced, true)) return;
  throw new ApiError('ADAPTER_NOT_ALLOWED', `adapter ${adapterId} is not allowed for this key`, {
    field: 'adapter_id',
    adapterId,
    allowedAdapters: principal.allowedAdapters,
  });
}
