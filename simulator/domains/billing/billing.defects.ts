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

/** Legitimate variants of the billing domain (README "Variants"): choices the spec leaves open. */
export const BILLING_VARIANTS: readonly DefectEntry[] = [
  { kind: 'variant', id: 'billing.other-id-formats', area: 'billing', description: 'the payment processor\'s identifiers take another form: `pcus-...`, `setint-...` and a secret `setint-...:secret:...` (the same customer still reads the same)', spec: 'spec 2.8: "`setupIntentId` (string), `clientSecret` (string), `paymentCustomerId` (string; the payment-processor customer identifier)": no format is given' },
];

/** One processor's identifiers written in another's style, the same way each time (a customer stays one). */
const otherStyle = (value: unknown) => (typeof value === 'string' ? value.replace(/^cus_/, 'pcus-').replace(/^seti_/, 'setint-').replace(/_secret_/, ':secret:') : value);

export const BILLING_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  {
    id: 'billing.other-id-formats',
    operations: ['createBillingSetupSession'],
    apply(res) {
      if (res.status !== 201 || typeof res.body !== 'object' || res.body === null) return;
      const body = res.body as Record<string, unknown>;
      res.body = { ...body, setupIntentId: otherStyle(body.setupIntentId), clientSecret: otherStyle(body.clientSecret), paymentCustomerId: otherStyle(body.paymentCustomerId) };
    },
  },
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
