// The signup domain's types (spec 2.11, 4.7; archived contracts v1.1.0 and v1.2.0): the stored session, the
// sandbox-wide settings, and what the domain offers the composition root and the control API.
import type { V1_2_0 } from '../../../contracts/generated/index.js';
import type { Control } from '../../../contracts/generated/index.js';
import type { DomainModule } from '../domain.js';
import type { SignupStatus } from './signup-session.machine.js';

type SignupSchemas = V1_2_0.components['schemas'];
export type SignupModule = SignupSchemas['SignupModule'];
export type LegalAcceptance = SignupSchemas['SignupLegalAcceptance'];
export type IntegrationKeyTemplate = SignupSchemas['SignupIntegrationKeyTemplate'];
type SignupSessionBody = SignupSchemas['SignupSession'];
export type SignupSettings = Control.components['schemas']['SignupSettings'];
type SignupVerification = Control.components['schemas']['SignupVerification'];

export interface SignupSessionRecord {
  id: string;
  rev?: number;
  status: SignupStatus;
  companyName: string;
  slug: string;
  modules: SignupModule[];
  adminEmail: string;
  adminFirstName: string | null;
  adminLastName: string | null;
  legalAcceptance: LegalAcceptance;
  /** The emailed six-digit code and magic-link token (shown by the control API: the sandbox sends no email). */
  code: string;
  magicLinkToken: string;
  verificationExpiresAt: string;
  /** Wrong codes or tokens since the current verification was issued; `locked` after the maximum. */
  failedAttempts: number;
  locked: boolean;
  resends: number;
  expiresAt: string;
  reviewReason: string | null;
  failureReason: string | null;
  /** The provision request that started provisioning: repeats with the same key replay it. */
  provision: { idempotencyKey: string; payload: string; template: IntegrationKeyTemplate | null } | null;
  /** When a PROVISIONING session finishes (sandbox clock). */
  provisionReadyAt: string | null;
  tenantId: string | null;
  clerkOrgId: string | null;
  /** Set once the first key is issued; its secret went out in that response only. */
  integrationKeyId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SignupDomain extends DomainModule {
  settings(): Promise<SignupSettings>;
  updateSettings(change: Partial<SignupSettings>): Promise<SignupSettings>;
  /** Control API: what the verification email would carry (404 for an unknown session). */
  verification(sessionId: string): Promise<SignupVerification>;
  /** Control API: an operator's decision on a session in REVIEW_REQUIRED (409 from any other state). */
  review(sessionId: string, decision: 'approve' | 'reject', reason: string | null): Promise<SignupSessionBody>;
}
