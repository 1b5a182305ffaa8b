// The billing domain's deviations (README "Defect injection"), as data: `billing.new-customer-each-call` and
// `billing.inactive-tenant-served` are rules at the hook points of billing.hooks.ts (setup-session.routes.ts
// decides there); the content-type defect only changes what is sent.
import type { DefectEntry, ResponseDefect } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { BILLING_HOOKS } from './billing.hooks.js';

export const BILLING_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'billing.wrong-content-type', area: 'billing', description: 'billing setup answers text/plain' },
  { kind: 'defect', id: 'billing.new-customer-each-call', area: 'billing', description: 'every billing setup creates a new payment customer', hooks: [at(BILLING_HOOKS.customerReused, () => false)] },
  { kind: 'defect', id: 'billing.inactive-tenant-served', area: 'billing', description: 'billing setup serves a suspended tenant', hooks: [at(BILLING_HOOKS.activeTenantRequired, () => false)] },
];

export const BILLING_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  {
    id: 'billing.wrong-content-type',
    operations: ['createBillingSetupSession'],
    apply(res) {
      if (res.status < 200 || res.status >= 300) return;
      res.body = JSON.stringify(res.body);
      res.type = 'text/plain';
    },
  },
];
