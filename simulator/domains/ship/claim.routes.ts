// The claim submission endpoints (spec 2.7, 3.4, 4.5), each answering `{ submission }`: create (rules 1-4:
// eligibility, duplicate links, carrier policy, missing findings), list, read, and the moves generate-packet
// (writes the PDF, claim-packet.ts; a failure to write it moves the submission to FAILED), submit,
// acknowledge and confirm-credit. Every move is kernel move() through claim.machine.ts: from a non-source
// state (including a repeat into the state already reached, spec 7) it is 409 ACTION_NOT_ALLOWED with
// subcode invalid_transition. The findings' own states never change here (spec 3.4: the two workflows are
// independent). Also the packet download (GET on `packetUrl`, the owning tenant only) and the operator
// close the control API calls. What a deviation may change is decided at the points of ship.hooks.ts.
import { readFile } from 'node:fs/promises';
import type { Middleware } from 'koa';
import type { KernelDeps } from '../../kernel/deps.js';
import { ApiError, actionNotAllowed, invalidRequest, notFound } from '../../kernel/errors.js';
import type { HandlerTable, Principal } from '../../kernel/http/types.js';
import { move } from '../../kernel/move.js';
import type { TenantStore } from '../tenants/index.js';
import { claimMachine, INACTIVE_SUBMISSION_STATES, type ClaimAction, type ClaimContext, type CreditOutcome } from './claim.machine.js';
import { writePacket } from './claim-packet.js';
import type { claimPresenter } from './claim.response.js';
import type { ClaimStore } from './claim.store.js';
import { explainFinding, isBlockingPolicy } from './finding.explain.js';
import { carrierPolicyOf } from './carrier-policy.js';
import type { FindingPresenter } from './finding.response.js';
import type { FindingStore } from './finding.store.js';
import { SHIP_HOOKS, type ClaimMoveEffects } from './ship.hooks.js';
import { carrierOf } from './shipment-columns.js';
import type { ClaimSubmissionRecord, ClaimSubmissionStatus, FindingRecord } from './ship.types.js';

/** spec 8.6: claim submissions `limit` defaults to 50. */
const SUBMISSIONS_DEFAULT_LIMIT = 50;
/** Where packetUrl points (not a contract operation: a document the sandbox serves). */
export const PACKET_PATH = '/api/ship/claims/submissions/:submissionId/packet.pdf';

export interface ClaimPeers {
  claims: ClaimStore;
  findings: FindingStore;
  present: FindingPresenter;
  shape: ReturnType<typeof claimPresenter>;
  tenants: Pick<TenantStore, 'get' | 'settings'>;
  /** The bearer check of an operation (the packet reads as getClaimSubmission does). */
  authenticate: (headers: Record<string, string | undefined>) => Promise<Principal | null>;
}

/** What a move sets besides its state, given the submission, the state it moves to and the tenant's clock. */
type ClaimEffects = (s: ClaimSubmissionRecord, to: ClaimSubmissionStatus, now: string) => ClaimMoveEffects | Promise<ClaimMoveEffects>;

const envelope = async (shape: ClaimPeers['shape'], record: ClaimSubmissionRecord, status = 200) => ({ status, body: { submission: await shape(record) } });

export function claimRoutes(deps: Pick<KernelDeps, 'clocks' | 'ids' | 'config' | 'defects' | 'log'>, peers: ClaimPeers) {
  const { claims, findings, present, shape, tenants } = peers;
  const normalizeCarrier = (carrier: string) => carrierOf(carrier) ?? carrier.trim().toUpperCase();

  /**
   * One move of a submission (kernel move(): load -> the table in force -> what the move sets -> compare-
   * and-set save, decided again on a lost race); `effects` is what it sets besides the state.
   */
  async function moveClaim(tenantId: string, submissionId: string, action: ClaimAction, context: ClaimContext, effects: ClaimEffects, precheck?: (s: ClaimSubmissionRecord) => Promise<void>) {
    const { record } = await move({
      machine: claimMachine,
      action,
      context,
      switches: deps.defects,
      details: { subcode: 'invalid_transition', submissionId },
      load: () => claims.get(tenantId, submissionId),
      missing: () => notFound('claim submission'),
      state: (s) => s.status,
      precheck,
      apply: async (s, to) => {
        const now = deps.clocks.of(tenantId).nowIso();
        const set = deps.defects.at(SHIP_HOOKS.claimMoveEffects, await effects(s, to, now), { action, now });
        return { ...s, ...set, status: to, updatedAt: now };
      },
      save: (next) => claims.update(next),
    });
    return record;
  }

  const refuseBlockedCarrier = async (tenantId: string, carrier: string, action: string) => {
    const policy = carrierPolicyOf((await tenants.settings(tenantId)).carrierPolicies, carrier);
    if (isBlockingPolicy(policy) && deps.defects.at(SHIP_HOOKS.carrierPolicyEnforced, true)) throw actionNotAllowed(`carrier ${carrier} is configured as ${policy} for this tenant: ${action} is blocked`, { subcode: 'carrier_blocked', carrier, policy, action });
  };

  const handlers = {
    async createClaimSubmission({ principal, body }) {
      const tenantId = principal.tenantId;
      const carrier = normalizeCarrier(body.carrier);
      // Rule 4 missing_findings: the ids are filtered to the tenant first; another tenant's finding reads as absent.
      const ids = [...new Set(body.findingIds)];
      const found = (await Promise.all(ids.map((id) => findings.get(tenantId, id)))).filter((f): f is FindingRecord => f !== undefined);
      if (!found.length) throw actionNotAllowed('none of the given findings belong to this tenant', { subcode: 'missing_findings' });
      // Rule 4 carrier_blocked: the tenant's policy for the claim's carrier.
      await refuseBlockedCarrier(tenantId, carrier, 'creating a claim submission');
      const view = await present(tenantId);
      // Rules 1-2 (contracts/README.md decision 19: checked before rule 3): each ineligible finding with its claimBlockerReason.
      const invalidFindingStates = [];
      for (const f of found) {
        // The finding's own claimEligibility, its links left to rule 3: ELIGIBLE reads exactly what is bundled.
        const explained = explainFinding(f, { ...(await view.context(f)), activeLink: null });
        const reason = f.carrier !== carrier ? `Finding is for carrier ${f.carrier}, not ${carrier}` : explained.claimBlockerReason;
        if (reason !== null) invalidFindingStates.push({ findingId: f.id, workflowStatus: f.workflowStatus, claimBlockerReason: reason });
      }
      if (invalidFindingStates.length && deps.defects.at(SHIP_HOOKS.claimCreateEligibilityEnforced, true)) {
        throw new ApiError('INVALID_REQUEST', `${invalidFindingStates.length} finding${invalidFindingStates.length === 1 ? ' is' : 's are'} not eligible for a claim submission`, { invalidFindingStates });
      }
      // Rule 3: a link to a submission still holding the finding.
      const inactive = deps.defects.at(SHIP_HOOKS.inactiveSubmissionStates, INACTIVE_SUBMISSION_STATES);
      const duplicateLinks = [];
      for (const f of found) {
        const link = await claims.activeLink(tenantId, f.id, inactive);
        if (link) duplicateLinks.push({ findingId: f.id, submissionId: link.submissionId, submissionStatus: link.status });
      }
      if (duplicateLinks.length && deps.defects.at(SHIP_HOOKS.claimCreateDuplicateLinksEnforced, true)) {
        throw actionNotAllowed(`${duplicateLinks.length} finding${duplicateLinks.length === 1 ? ' is' : 's are'} already linked to an active claim submission`, { subcode: 'invalid_finding_state', duplicateLinks });
      }
      const now = deps.clocks.of(tenantId).nowIso();
      const record: ClaimSubmissionRecord = {
        id: deps.ids.uuid(), tenantId, status: 'DRAFT', carrier, findingIds: [...deps.defects.at(SHIP_HOOKS.claimCreateFindingIds, found.map((f) => f.id))], packetUrl: null, packetPath: null, submittedAt: null, acknowledgedAt: null,
        creditConfirmedAt: null, failedAt: null, failureReason: null, externalReference: null, notes: body.notes ?? null, amountsByFinding: null, closedAt: null, createdAt: now, updatedAt: now,
      };
      await claims.create(record);
      return envelope(shape, record, 201);
    },

    async listClaimSubmissions({ principal, query }) {
      const limit = query.limit ?? SUBMISSIONS_DEFAULT_LIMIT;
      const offset = query.offset ?? 0;
      const page = await claims.list(principal.tenantId, deps.defects.at(SHIP_HOOKS.claimsStatusFilter, query.status) as typeof query.status, { limit, offset, order: deps.defects.at(SHIP_HOOKS.listOrder, 'newest-first') });
      const submissions = [];
      for (const s of page.items) submissions.push(await shape(s));
      const hasMore = deps.defects.at(SHIP_HOOKS.claimsHasMore, offset + page.items.length < page.total);
      return { status: 200, body: { submissions, total: page.total, limit, offset, hasMore } };
    },

    async getClaimSubmission({ principal, params }) {
      const submission = await claims.get(principal.tenantId, params.submissionId);
      if (!submission) throw notFound('claim submission');
      return envelope(shape, submission);
    },

    async generateClaimPacket({ principal, params, headers }) {
      const tenantId = principal.tenantId;
      const tenant = await tenants.get(tenantId);
      const origin = `http://${headers.host ?? `${deps.config.host}:${deps.config.port}`}`;
      const saved = await moveClaim(tenantId, params.submissionId, 'generate-packet', {}, async (s, _to, now) => {
        const bundled = (await Promise.all(s.findingIds.map((id) => findings.get(tenantId, id)))).filter((f): f is FindingRecord => f !== undefined);
        const packetPath = await writePacket(deps, { submission: s, claimant: { tenantId, name: tenant?.name ?? tenantId }, findings: deps.defects.at(SHIP_HOOKS.packetFindings, bundled), generatedAt: now });
        return { packetPath, packetUrl: `${origin}${PACKET_PATH.replace(':submissionId', s.id)}` };
      }).catch(async (error: unknown) => {
        if (error instanceof ApiError) throw error;
        // spec 3.4: a failure at packet generation -> FAILED, with the reason.
        deps.log.warn({ err: error, submissionId: params.submissionId }, 'claim packet generation failed');
        return moveClaim(tenantId, params.submissionId, 'fail', {}, (_s, _to, now) => ({ failedAt: now, failureReason: `packet generation failed: ${(error as Error).message}` }));
      });
      return envelope(shape, saved);
    },

    async submitClaimSubmission({ principal, params, body }) {
      const saved = await moveClaim(
        principal.tenantId,
        params.submissionId,
        'submit',
        {},
        (_s, _to, now) => ({ externalReference: body.externalReference.trim(), submittedAt: now }),
        // spec 4.5 rule 4: submitting reaches the carrier; a blocked carrier refuses the move the table allows.
        async (s) => {
          if (s.status === 'READY') await refuseBlockedCarrier(principal.tenantId, s.carrier, 'submitting the claim');
        },
      );
      if (deps.defects.at(SHIP_HOOKS.findingsFollowClaimSubmit, false)) {
        for (const id of saved.findingIds) {
          const finding = await findings.get(principal.tenantId, id);
          if (finding?.workflowStatus === 'DISPUTED') await findings.update({ ...finding, workflowStatus: 'SUBMITTED', updatedAt: saved.updatedAt });
        }
      }
      return envelope(shape, saved);
    },

    async acknowledgeClaimSubmission({ principal, params, body }) {
      const saved = await moveClaim(principal.tenantId, params.submissionId, 'acknowledge', {}, (_s, _to, now) => ({ externalReference: body.externalReference.trim(), acknowledgedAt: now }));
      return envelope(shape, saved);
    },

    async confirmClaimSubmissionCredit({ principal, params, body }) {
      const tenantId = principal.tenantId;
      const current = await claims.get(tenantId, params.submissionId);
      if (!current) throw notFound('claim submission');
      const given = body.amountsByFinding;
      const stray = given ? Object.keys(given).filter((id) => !current.findingIds.includes(id)) : [];
      if (stray.length) throw invalidRequest(`amountsByFinding names findings that are not in this submission: ${stray.join(', ')}`, 'amountsByFinding', { unknownFindingIds: stray });
      // contracts/README.md decision 20: judged from amountsByFinding; without it every finding is credited.
      const credited = given ? current.findingIds.filter((id) => (given[id] ?? 0) > 0).length : current.findingIds.length;
      const creditOutcome: CreditOutcome = credited === current.findingIds.length ? 'all-credited' : credited === 0 ? 'all-failed' : 'partial';
      if (current.status === 'CREDIT_CONFIRMED' && deps.defects.at(SHIP_HOOKS.confirmedCreditReplayed, false)) return envelope(shape, current);
      const amounts = async () => given ?? Object.fromEntries(await Promise.all(current.findingIds.map(async (id) => [id, (await findings.get(tenantId, id))?.recoverableAmount ?? 0] as const)));
      const amountsByFinding = await amounts();
      const saved = await moveClaim(tenantId, params.submissionId, 'confirm-credit', { creditOutcome }, (s, to, now) => ({
        amountsByFinding,
        // spec 2.7: acknowledgedAt is set on the move into ACKNOWLEDGED, also a partial confirm-credit from FAILED.
        ...(to === 'ACKNOWLEDGED' && s.acknowledgedAt === null ? { acknowledgedAt: now } : {}),
        ...(to === 'CREDIT_CONFIRMED' ? { creditConfirmedAt: now } : {}),
        ...(to === 'FAILED' ? { failedAt: now, failureReason: body.reason?.trim() || 'the carrier credited none of the findings' } : {}),
      }));
      return envelope(shape, saved);
    },
  } satisfies HandlerTable;

  /** GET packetUrl: the PDF, to the tenant owning the submission (another tenant's reads as absent: 404). */
  const packetRoute: Middleware = async (ctx) => {
    const principal = await peers.authenticate(Object.fromEntries(Object.entries(ctx.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v])));
    if (!principal) throw notFound('claim packet');
    const submission = await claims.get(principal.tenantId, String(ctx.params?.submissionId ?? ''));
    const leaked = !submission && !deps.defects.at(SHIP_HOOKS.packetOwnerOnly, true) ? await claims.getAnyTenant(String(ctx.params?.submissionId ?? '')) : undefined;
    const owned = submission ?? leaked;
    if (!owned?.packetPath) throw notFound('claim packet');
    ctx.status = 200;
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="claim-${owned.id}.pdf"`);
    ctx.body = await readFile(owned.packetPath);
  };

  /** spec 3.4 operator close (control API only): from any state but CLOSED; never reopened. */
  const closeSubmission = async (tenantId: string, submissionId: string, reason: string | null = null) =>
    shape(await moveClaim(tenantId, submissionId, 'close', {}, (_s, _to, now) => ({ closedAt: now, closeReason: reason })));

  return { handlers, packetRoute, closeSubmission };
}
