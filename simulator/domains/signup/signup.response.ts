// The one place signup response bodies are shaped (spec 4.7; contract schemas SignupSessionCreated,
// SignupVerificationResult, ProvisionResult, SignupSession).
import type { SignupSessionRecord } from './signup.types.js';

export const createdBody = (s: SignupSessionRecord) => ({ sessionId: s.id, status: s.status, verificationExpiresAt: s.verificationExpiresAt, expiresAt: s.expiresAt });

export const verifiedBody = (s: SignupSessionRecord) => ({ sessionId: s.id, status: s.status });

export function sessionBody(s: SignupSessionRecord) {
  return {
    sessionId: s.id,
    status: s.status,
    companyName: s.companyName,
    slug: s.slug,
    modules: [...s.modules],
    ...(s.reviewReason !== null && s.status === 'REVIEW_REQUIRED' ? { reviewReason: s.reviewReason } : {}),
    ...(s.failureReason !== null ? { failureReason: s.failureReason } : {}),
    ...(s.tenantId !== null ? { tenantId: s.tenantId } : {}),
    expiresAt: s.expiresAt,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

const STEPS = {
  secret: 'Store the integration secret now; it is not shown again.',
  secretShown: 'The integration secret was shown once, in the first response of this provisioning; an operator can issue another key (POST /_sim/tenants/{tenantId}/integration-keys).',
  exchange: 'Exchange the integration key for a bearer token at POST /api/auth/token/integration (v1.3.0 serves the tenant too).',
  billing: 'Add a payment method with POST /api/public/billing/setup-session.',
  review: 'An operator is reviewing this signup; the admin email will be notified of the outcome.',
  poll: 'Poll GET /api/public/signup/sessions/{sessionId} until the status is PROVISIONED or FAILED, then repeat provision with the same idempotencyKey.',
} as const;

/** ProvisionResult; `secret` only in the one response that issued the key. */
export function provisionBody(s: SignupSessionRecord, secret?: string) {
  const done = s.status === 'PROVISIONED';
  const nextSteps = done ? [secret ? STEPS.secret : STEPS.secretShown, STEPS.exchange, STEPS.billing] : s.status === 'REVIEW_REQUIRED' ? [STEPS.review, STEPS.poll] : [STEPS.poll];
  return {
    sessionId: s.id,
    status: s.status,
    ...(s.tenantId !== null ? { tenantId: s.tenantId } : {}),
    tenantSlug: s.slug,
    ...(s.clerkOrgId !== null ? { clerkOrgId: s.clerkOrgId } : {}),
    ...(s.integrationKeyId !== null ? { integrationKeyId: s.integrationKeyId } : {}),
    ...(secret ? { integrationSecret: secret } : {}),
    nextSteps,
  };
}
