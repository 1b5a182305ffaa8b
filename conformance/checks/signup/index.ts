// The signup checks (spec 3.5, 4.7; archived contracts v1.1.0 and v1.2.0). Each skips on a contract
// without signup (v1.3.0); checksFor() adds them only for a contract that has createSignupSession.
import type { Check } from '../../harness/check.js';
import { signupCreateRules } from './create-rules.js';
import { signupFeatureDisabled } from './feature-disabled.js';
import { signupLifecycleModel } from './lifecycle-model.js';
import { signupProvisionFlow } from './provision-flow.js';
import { signupSessionExpiry } from './session-expiry.js';
import { signupSurfaceByVersion } from './surface.js';
import { signupVerificationExpiry } from './verification-expiry.js';
import { signupVerificationLockout } from './verification-lockout.js';

export const signupChecks: Check[] = [
  signupCreateRules,
  signupSurfaceByVersion,
  signupVerificationLockout,
  signupProvisionFlow,
  signupLifecycleModel,
  signupSessionExpiry,
  signupVerificationExpiry,
  signupFeatureDisabled,
];
