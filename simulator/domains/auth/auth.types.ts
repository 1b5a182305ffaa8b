// The auth domain's types: what it offers the composition root and the control API.
import type { Authenticator } from '../../kernel/http/contract-routes.js';
import type { DomainModule } from '../domain.js';
import type { CreateKeyInput, IntegrationKeyView } from './keys.js';

export interface AuthDomain extends DomainModule {
  /** The Authenticator of kernel/http/contract-routes.ts */
  authenticate: Authenticator;
  keys: {
    /** Creates an integration key; the secret is returned once and stored only as a hash. `secret` pins the value (SIM_INTEGRATION_KEY). */
    create(input: CreateKeyInput): Promise<{ keyId: string; integrationKey: string }>;
    revoke(keyId: string): Promise<IntegrationKeyView | undefined>;
    get(keyId: string): Promise<IntegrationKeyView | undefined>;
    list(tenantId: string): Promise<IntegrationKeyView[]>;
  };
  /** Signed bearer for a dashboard (identity-provider) principal of a tenant: used by the sandbox control API so integrators can see PRINCIPAL_DENIED and dashboard-only behaviour. */
  issueDashboardToken(tenantId: string): Promise<string>;
  /** Forgets the signing secret this instance keeps (several instances on one database read it once): the
   *  sandbox was reset, here or on another instance, and the next token is signed with a new one. */
  forgetCachedSecrets(): void;
}
