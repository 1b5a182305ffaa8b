// Signup sessions, the slugs they hold, and the sandbox-wide signup settings: the only file touching the
// `signupSessions`, `signupSlugs` and `signupSettings` collections. Sessions belong to no tenant: every
// time here is the sandbox clock (deps.clock). Reads by id only; a slug is its own record's id (no scan).
import type { KernelDeps } from '../../kernel/deps.js';
import { transitionLog } from '../../kernel/transition-log.js';
import type { SignupSessionRecord, SignupSettings } from './signup.types.js';

interface SlugClaim {
  /** The slug itself. */
  id: string;
  rev?: number;
  sessionId: string;
}

interface SettingsRecord extends SignupSettings {
  id: string;
  rev?: number;
}

const DEFAULT_SIGNUP_SETTINGS: SignupSettings = { enabled: true, retryAfterSeconds: 3600, provisioningSeconds: 0 };
const SETTINGS_ID = 'sandbox';

export function signupStore(deps: KernelDeps) {
  // A session belongs to no tenant until provisioning names one (its entries then carry that tenant).
  const sessions = transitionLog(deps).tracked(deps.store.collection<SignupSessionRecord>('signupSessions'), { machine: 'signup-session', state: (s) => s.status, tenantId: (s) => s.tenantId });
  const slugs = deps.store.collection<SlugClaim>('signupSlugs');
  const settings = deps.store.collection<SettingsRecord>('signupSettings');
  return {
    get: (id: string) => sessions.get(id),
    create: (record: SignupSessionRecord) => sessions.create(record),
    /** Compare-and-set on `record.rev`: null when another request changed the session first. */
    update: (record: SignupSessionRecord) => sessions.update(record),
    slugClaim: (slug: string) => slugs.get(slug),
    /** Insert-only: null when the slug is already claimed (the caller looks at the claim's session). */
    claimSlug: (slug: string, sessionId: string) => slugs.create({ id: slug, sessionId }),
    /** Takes over a claim whose session no longer holds the slug; null when another request won. */
    reclaimSlug: (claim: SlugClaim, sessionId: string) => slugs.update({ ...claim, sessionId }),
    async settings(): Promise<SignupSettings> {
      const stored = await settings.get(SETTINGS_ID);
      return { ...DEFAULT_SIGNUP_SETTINGS, ...(stored ? { enabled: stored.enabled, retryAfterSeconds: stored.retryAfterSeconds, provisioningSeconds: stored.provisioningSeconds } : {}) };
    },
    async updateSettings(change: Partial<SignupSettings>): Promise<SignupSettings> {
      const current = await this.settings();
      const next = { ...current, ...change };
      await settings.put({ id: SETTINGS_ID, ...next });
      return next;
    },
  };
}

export type SignupStore = ReturnType<typeof signupStore>;
