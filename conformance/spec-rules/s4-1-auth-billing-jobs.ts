// Spec 4 (preamble) and 4.1: auth, billing and jobs endpoints, one rule per cell of each row that says
// something a server must do.
import { defineRules } from './rule.js';

export const section41Rules = defineRules([
  // 4 (preamble)
  { id: '4.bearer-required', section: '4', kind: 'security', sentence: 'All tenant endpoints need Authorization: Bearer <ACCESS_TOKEN> unless stated.', checks: ['auth.missing-bearer', 'auth.malformed-bearer'] },
  { id: '4.internal-error-code', section: '4', kind: 'error', sentence: 'Every enqueue/workflow endpoint can answer 500 INTERNAL_ERROR.', unheld: { reason: 'a server error cannot be provoked from outside by a valid request; any 5xx a check meets fails it (operations.*.accepts-valid-input), and its envelope is the contract\'s' } },

  // 4.1 token exchange
  { id: '4.1.token.exchange', section: '4.1', kind: 'security', sentence: 'POST /api/auth/token/integration with header x-api-key and no body answers 200 with the token response.', checks: ['auth.token-exchange', 'operations.exchangeIntegrationToken.accepts-valid-input'] },
  { id: '4.1.token.missing-key', section: '4.1', kind: 'error', sentence: 'The token exchange without x-api-key answers 400 MISSING_API_KEY.', checks: ['auth.missing-api-key', 'operations.exchangeIntegrationToken.rejects-invalid-input'] },
  { id: '4.1.token.key-errors', section: '4.1', kind: 'error', sentence: 'Key errors at the token exchange answer 401.', checks: ['auth.unknown-key', 'auth.expired-key', 'auth.revoked-key'] },

  // 4.1 billing
  { id: '4.1.billing.created-201', section: '4.1', kind: 'shape', sentence: 'POST /api/public/billing/setup-session answers 201 with the billing setup response (optional body { billingEmail }).', checks: ['billing.setup-session', 'operations.createBillingSetupSession.accepts-valid-input'] },
  { id: '4.1.billing.email-validated', section: '4.1', kind: 'error', sentence: 'billingEmail is an e-mail address (else 400).', checks: ['operations.createBillingSetupSession.rejects-invalid-input'] },
  { id: '4.1.billing.reuses-customer', section: '4.1', kind: 'state', sentence: 'Billing setup creates or reuses the tenant payment customer.', checks: ['billing.setup-session'] },
  { id: '4.1.billing.principal-integration', section: '4.1', kind: 'security', sentence: 'Billing setup answers 403 PRINCIPAL_DENIED unless the principal is of type integration.', checks: ['auth.principal-denied'] },
  { id: '4.1.billing.tenant-active', section: '4.1', kind: 'security', sentence: 'Billing setup requires an active tenant.', checks: ['billing.inactive-tenant'] },

  // 4.1 jobs
  { id: '4.1.jobs.list-filters', section: '4.1', kind: 'state', sentence: 'GET /api/jobs filters by type (2.2 enum) and status; every job listed matches.', checks: ['jobs.list-filters', 'jobs.failed-job'] },
  { id: '4.1.jobs.list-filter-values', section: '4.1', kind: 'error', sentence: 'type and status take only their enum values (else 400).', checks: ['operations.listJobs.rejects-invalid-input'] },
  { id: '4.1.jobs.list-limit-range', section: '4.1', kind: 'error', sentence: 'GET /api/jobs limit is 1..100 and offset >= 0 (else 400).', checks: ['operations.listJobs.rejects-invalid-input', 'pagination.jobs-traversal'] },
  { id: '4.1.jobs.get', section: '4.1', kind: 'shape', sentence: 'GET /api/jobs/:id answers 200 with the Job; 400 for an id that is not a uuid.', checks: ['operations.getJob.accepts-valid-input', 'operations.getJob.rejects-invalid-input', 'uploads.accepted-receipt'] },
  { id: '4.1.jobs.get-404', section: '4.1', kind: 'error', sentence: "GET /api/jobs/:id answers 404 for a job that is absent or not the tenant's.", checks: ['isolation.jobs', 'auth.token-binds-tenant'] },
]);
