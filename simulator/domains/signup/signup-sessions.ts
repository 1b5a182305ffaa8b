// Signup sessions (spec 3.5, 4.7): create, verify (code or magic link), resend, provision, read, and the
// operator's review decision. Every move goes through the table in force of the machine
// (signup-session.machine.ts, with the deviations of signup.defects.ts that are on) and is saved
// compare-and-set; resend, provision and review are kernel move()s. Time is the sandbox clock: a session
// belongs to no tenant until it is provisioned.
// Lazy moves: a session read after its expiresAt is EXPIRED, a PROVISIONING one after its ready time is
// PROVISIONED (its tenant created then), whichever request sees it first.
import { createHash } from 'node:crypto';
import type { KernelDeps } from '../../kernel/deps.js';
import { actionNotAllowed, ApiError, invalidRequest, notFound } from '../../kernel/errors.js';
import { nameUuid } from '../../kernel/ids.js';
import { transition } from '../../kernel/machine.js';
import { move } from '../../kernel/move.js';
import type { AuthDomain } from '../auth/index.js';
import { ALL_SCOPES } from '../auth/index.js';
import type { TenantStore } from '../tenants/index.js';
import { canExpire, holdsSlug, signupSessionMachine, type ProvisionContext, type SignupAction } from './signup-session.machine.js';
import { SIGNUP_HOOKS } from './signup.hooks.js';
import { isReservedSlug, needsReview, REVIEW_REASON } from './signup.slug-lists.js';
import type { SignupStore } from './signup.store.js';
import type { IntegrationKeyTemplate, LegalAcceptance, SignupModule, SignupSessionRecord } from './signup.types.js';

/** Sandbox-defined (spec 4.7 shows the fields, not the durations): as the contract's examples. */
export const VERIFICATION_TTL_MS = 15 * 60_000;
export const SESSION_TTL_MS = 7 * 24 * 3_600_000;
/** Wrong codes or tokens before verification locks (sandbox-defined lock-out). */
export const MAX_VERIFICATION_ATTEMPTS = 5;
/** Resends per session (v1.2.0). */
const MAX_RESENDS = 5;
/** Namespace of the tenant ids derived from a session id (one tenant per session, even under races). */
const TENANT_NAMESPACE = '1b5e3f0a-7c2d-4e91-9a8b-5d6c7e8f9a0b';

export interface CreateSessionInput {
  companyName: string;
  slug: string;
  modules: SignupModule[];
  adminEmail: string;
  adminFirstName?: string;
  adminLastName?: string;
  legalAcceptance: LegalAcceptance;
}

export type ProvisionOutcome = { status: 201 | 202; session: SignupSessionRecord; secret?: string };

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const stable = (value: unknown): string => JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));

export function signupSessions(deps: KernelDeps, store: SignupStore, peers: { tenants: TenantStore; auth: AuthDomain }) {
  const now = () => deps.clock.nowIso();
  const sixDigits = () => String(Buffer.from(deps.ids.secret(6), 'base64url').readUIntBE(0, 6) % 1_000_000).padStart(6, '0');
  const newVerification = (at: string) => ({ code: sixDigits(), magicLinkToken: `mlk_sbx_${deps.ids.secret(18)}`, verificationExpiresAt: plus(at, VERIFICATION_TTL_MS), failedAttempts: 0, locked: false });

  /** Moves the session and stamps updatedAt (409 ACTION_NOT_ALLOWED from a state the table in force does not allow). */
  const moved = (s: SignupSessionRecord, action: SignupAction, at: string): SignupSessionRecord => ({
    ...s,
    status: transition(signupSessionMachine, s.status, action, {}, { sessionId: s.id }, deps.defects),
    updatedAt: at,
  });

  async function createTenant(s: SignupSessionRecord) {
    const tenantId = nameUuid(TENANT_NAMESPACE, s.id);
    if (!(await peers.tenants.get(tenantId))) await peers.tenants.create({ id: tenantId, name: s.companyName, slug: s.slug });
    return { tenantId, clerkOrgId: `org_sbx_${createHash('sha256').update(tenantId).digest('hex').slice(0, 24)}` };
  }

  /** A lazy move the table in force refuses (a deviation took it out) is not due: the session stays as it is. */
  function unlessRefused(lazyMove: () => SignupSessionRecord): SignupSessionRecord | undefined {
    try {
      return lazyMove();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ACTION_NOT_ALLOWED') return undefined;
      throw error;
    }
  }

  /** The lazy moves due at `at`: expiry and the end of provisioning. */
  async function due(s: SignupSessionRecord): Promise<SignupSessionRecord | undefined> {
    const at = now();
    // spec 3.5 EXPIRED: due by the machine's own table; a deviation that takes the move out keeps the session.
    if (canExpire(s.status) && at >= s.expiresAt) return unlessRefused(() => moved(s, 'expire', s.expiresAt));
    if (s.status === 'PROVISIONING' && s.provisionReadyAt !== null && at >= s.provisionReadyAt) {
      return { ...moved(s, 'finish', s.provisionReadyAt), ...(await createTenant(s)) };
    }
    return undefined;
  }

  /**
   * The session as of now (lazy moves saved), or undefined when there is none. Not a move(): which move is
   * due (expire, finish or none) is read from the record, and none due is no refusal.
   */
  async function current(id: string): Promise<SignupSessionRecord | undefined> {
    for (;;) {
      const s = await store.get(id);
      if (!s) return undefined;
      const next = await due(s);
      if (!next) return s;
      const saved = await store.update(next);
      if (saved) return saved;
    }
  }

  /** The session as of now, or 404. */
  async function load(id: string): Promise<SignupSessionRecord> {
    const s = await current(id);
    if (!s) throw notFound('signup session');
    return s;
  }

  /**
   * One move of a session (kernel/move.ts): loaded as of now, moved by the table in force, changed by
   * `change` (which may still refuse), saved compare-and-set and decided again on a lost race.
   */
  async function moveSession(id: string, action: SignupAction, change: (s: SignupSessionRecord, at: string) => SignupSessionRecord | Promise<SignupSessionRecord>, context: (s: SignupSessionRecord) => ProvisionContext = () => ({})) {
    const { record } = await move({
      machine: signupSessionMachine,
      action,
      context,
      switches: deps.defects,
      details: { sessionId: id },
      load: () => current(id),
      missing: () => notFound('signup session'),
      state: (s) => s.status,
      apply: (s, to) => {
        const at = now();
        return change({ ...s, status: to, updatedAt: at }, at);
      },
      save: (next) => store.update(next),
    });
    return record;
  }

  /**
   * Saves a change made from `s`; a lost race is retried from a fresh read (the change is re-judged). For
   * verification, which is not a move() because a wrong code saves its count without moving the session.
   */
  async function save(id: string, change: (s: SignupSessionRecord) => SignupSessionRecord | Promise<SignupSessionRecord>): Promise<SignupSessionRecord> {
    for (;;) {
      const s = await load(id);
      const saved = await store.update(await change(s));
      if (saved) return saved;
    }
  }

  async function claimSlug(slug: string, sessionId: string) {
    const taken = () => actionNotAllowed(`slug ${slug} is already taken`, { field: 'slug', reason: 'slug_taken' });
    if (isReservedSlug(slug)) throw actionNotAllowed(`slug ${slug} is reserved`, { field: 'slug', reason: 'slug_reserved' });
    for (;;) {
      if (await store.claimSlug(slug, sessionId)) return;
      const claim = await store.slugClaim(slug);
      if (!claim) continue;
      const holder = await store.get(claim.sessionId).then((s) => (s ? load(s.id) : undefined));
      if (holder && holdsSlug(holder.status) && deps.defects.at(SIGNUP_HOOKS.slugHoldEnforced, true)) throw taken();
      if (await store.reclaimSlug(claim, sessionId)) return;
    }
  }

  function checkTemplate(template: IntegrationKeyTemplate | undefined) {
    if (!template) return;
    const unknown = (template.scopes ?? []).filter((s) => !ALL_SCOPES.includes(s));
    if (unknown.length) throw invalidRequest(`unknown scope ${unknown.join(', ')}`, 'integrationKeyTemplate.scopes', { allowed: ALL_SCOPES });
    if (template.defaultAdapter && template.allowedAdapters && !template.allowedAdapters.includes(template.defaultAdapter)) {
      throw invalidRequest('defaultAdapter must be one of allowedAdapters', 'integrationKeyTemplate.defaultAdapter');
    }
    if (template.expiresAt && template.expiresAt <= now()) throw invalidRequest('expiresAt must be in the future', 'integrationKeyTemplate.expiresAt');
  }

  /** Issues the first key of a PROVISIONED session: its secret goes out in this response only. */
  async function issueKey(s: SignupSessionRecord): Promise<ProvisionOutcome> {
    const template = s.provision?.template ?? null;
    const key = await peers.auth.keys.create({
      tenantId: s.tenantId!,
      scopes: template?.scopes,
      allowedAdapters: template?.allowedAdapters ?? null,
      defaultAdapter: template?.defaultAdapter ?? null,
      expiresAt: template?.expiresAt ?? null,
    });
    const saved = await store.update({ ...s, integrationKeyId: key.keyId });
    if (saved) return { status: 201, session: saved, secret: key.integrationKey };
    // Another request issued the key first: this one is not shown to anyone.
    await peers.auth.keys.revoke(key.keyId);
    return { status: 201, session: await load(s.id) };
  }

  function verifyWith(id: string, given: string, field: 'code' | 'token') {
    return async () => {
      let refusal: ApiError | undefined;
      const saved = await save(id, (s) => {
        refusal = undefined;
        const at = now();
        if (s.status !== 'PENDING_EMAIL_VERIFICATION') return moved(s, 'verify', at);
        if (s.locked) throw actionNotAllowed('too many wrong verification attempts: verification is locked', { currentState: s.status, reason: 'verification_locked', maxAttempts: MAX_VERIFICATION_ATTEMPTS });
        if (at > s.verificationExpiresAt && deps.defects.at(SIGNUP_HOOKS.verificationExpiryEnforced, true)) throw actionNotAllowed('the verification code has expired; ask for a new one (resend-verification)', { currentState: s.status, reason: 'verification_expired' });
        const expected = field === 'code' ? s.code : s.magicLinkToken;
        if (deps.defects.at(SIGNUP_HOOKS.verificationAccepted, given === expected, { field })) return moved(s, 'verify', at);
        const failedAttempts = s.failedAttempts + 1;
        const locked = deps.defects.at(SIGNUP_HOOKS.verificationLocks, failedAttempts >= MAX_VERIFICATION_ATTEMPTS);
        refusal = locked
          ? actionNotAllowed('too many wrong verification attempts: verification is locked', { currentState: s.status, reason: 'verification_locked', maxAttempts: MAX_VERIFICATION_ATTEMPTS })
          : invalidRequest(`the ${field === 'code' ? 'verification code' : 'magic-link token'} is wrong`, field, { attemptsRemaining: Math.max(0, MAX_VERIFICATION_ATTEMPTS - failedAttempts) });
        return { ...s, failedAttempts, locked, updatedAt: at };
      });
      if (refusal) throw refusal;
      return saved;
    };
  }

  return {
    load,

    async create(input: CreateSessionInput): Promise<SignupSessionRecord> {
      const at = now();
      const id = deps.ids.uuid();
      await claimSlug(input.slug, id);
      const session: SignupSessionRecord = {
        id,
        status: 'PENDING_EMAIL_VERIFICATION', // spec 3.5: creating a session yields it
        companyName: input.companyName,
        slug: input.slug,
        modules: [...input.modules],
        adminEmail: input.adminEmail,
        adminFirstName: input.adminFirstName ?? null,
        adminLastName: input.adminLastName ?? null,
        legalAcceptance: { ...input.legalAcceptance },
        ...newVerification(at),
        resends: 0,
        expiresAt: plus(at, SESSION_TTL_MS),
        reviewReason: null,
        failureReason: null,
        provision: null,
        provisionReadyAt: null,
        tenantId: null,
        clerkOrgId: null,
        integrationKeyId: null,
        createdAt: at,
        updatedAt: at,
      };
      return (await store.create(session))!;
    },

    verifyEmail: (id: string, code: string) => verifyWith(id, code, 'code')(),
    verifyMagicLink: (id: string, token: string) => verifyWith(id, token, 'token')(),

    /** v1.2.0: a new code and token, the lock lifted; 409 once the session no longer awaits verification. */
    resend: (id: string) =>
      moveSession(id, 'resend', (s, at) => {
        // The limit is checked once the table allowed the move: a session past verification is refused as such.
        if (s.resends >= MAX_RESENDS) throw actionNotAllowed(`at most ${MAX_RESENDS} verification emails are sent again`, { currentState: s.status, reason: 'resend_limit' });
        return { ...s, ...newVerification(at), resends: s.resends + 1 };
      }),

    async provision(id: string, body: { idempotencyKey: string; integrationKeyTemplate?: IntegrationKeyTemplate }): Promise<ProvisionOutcome> {
      const payload = stable(body.integrationKeyTemplate ?? null);
      const current = await load(id);
      if (current.provision) {
        // A repeat: the same key and payload replays the outcome as it is now; anything else is 409.
        if (current.provision.idempotencyKey !== body.idempotencyKey) throw actionNotAllowed('this session was already provisioned with another idempotencyKey', { currentState: current.status, field: 'idempotencyKey' });
        if (current.provision.payload !== payload) throw actionNotAllowed('idempotencyKey reused with a different payload', { currentState: current.status, field: 'idempotencyKey' });
        if (current.status === 'FAILED') throw actionNotAllowed(`provisioning failed: ${current.failureReason ?? 'rejected'}`, { currentState: current.status, failureReason: current.failureReason });
        if (current.status !== 'PROVISIONED') return { status: 202, session: current };
        // A replay the point does not answer from the outcome it had provisions anew.
        if (!deps.defects.at(SIGNUP_HOOKS.provisionReplaysOutcome, true)) {
          const again = await store.update({ ...current, id: current.id, tenantId: deps.ids.uuid(), integrationKeyId: null });
          if (again) {
            await peers.tenants.create({ id: again.tenantId!, name: again.companyName, slug: again.slug });
            return issueKey(again);
          }
        }
        if (current.integrationKeyId === null) return issueKey(current);
        return { status: 201, session: current };
      }
      checkTemplate(body.integrationKeyTemplate);
      const { provisioningSeconds } = await store.settings();
      const session = await moveSession(
        id,
        'provision',
        async (next, at) => {
          const provisioned = { ...next, provision: { idempotencyKey: body.idempotencyKey, payload, template: body.integrationKeyTemplate ?? null } };
          if (next.status === 'REVIEW_REQUIRED') return { ...provisioned, reviewReason: REVIEW_REASON };
          if (next.status === 'PROVISIONING') return { ...provisioned, provisionReadyAt: plus(at, provisioningSeconds * 1000) };
          return { ...provisioned, ...(await createTenant(next)) };
        },
        (s) => ({ needsReview: needsReview(s.slug), takesTime: provisioningSeconds > 0 }),
      );
      if (session.status === 'PROVISIONED') return issueKey(session);
      return { status: 202, session };
    },

    /** Control API: approve starts provisioning (after provisioningSeconds), reject fails the signup. */
    async review(id: string, decision: 'approve' | 'reject', reason: string | null): Promise<SignupSessionRecord> {
      const { provisioningSeconds } = await store.settings();
      return moveSession(id, decision, (next, at) =>
        decision === 'reject' ? { ...next, failureReason: reason ?? 'The signup was rejected by an operator.' } : { ...next, provisionReadyAt: plus(at, provisioningSeconds * 1000) },
      );
    },
  };
}

export type SignupSessions = ReturnType<typeof signupSessions>;
