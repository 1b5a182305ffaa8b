// The billing domain's hook points (kernel/deviations.ts): the named places where an entry of the catalogue
// (an injected defect or a legitimate variant, declared in billing.defects.ts) may change what is decided.
// The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';

export const BILLING_HOOKS = {
  /** spec 4.1: whether billing setup requires an active tenant (403 PRINCIPAL_DENIED otherwise). */
  activeTenantRequired: hookPoint<boolean>('rule', 'billing.active-tenant-required'),
  /** spec 4.1, 2.8: whether billing setup reuses the tenant's payment customer once it has one. */
  customerReused: hookPoint<boolean>('rule', 'billing.customer-reused'),
} as const;
