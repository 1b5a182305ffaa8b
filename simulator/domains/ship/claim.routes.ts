// The claim submission endpoints (spec 2.7, 3.4, 4.5): create with rules 1-4, list, read, generate-packet
// (a real PDF, claim-packet.ts), submit, acknowledge, confirm-credit; each answers `{ submission }`. Every
// move goes through claim.machine.ts: from a non-source state (including a repeat into the state already
// reached, spec 7) it is 409 ACTION_NOT_ALLOWED with subcode invalid_transition. The findings' own states
// never change here (spec 3.4: the two workflows are independent). Also the packet download (GET on
// `packetUrl`, the owning tenant only) and the operator close the control API calls.
import { readFile } from 'node:fs/promises';
import type { Middleware } from 'koa';
import type { KernelDeps } from '../../kernel/deps.js';
import { ApiError, actionNotAllowed, invalidRequest, notFound } from '../../kernel/errors.js';
import type { HandlerTable, Principal } from '../../kernel/http/types.js';
import { transition } from '../../kernel/machine.js';
import type { TenantStore } from '../tenants/index.js';
import { afterConfirmCredit, claimMachine, type ClaimAction, type ClaimContext, type CreditOutcome } from './claim.machine.js';
import { writePacket } from './claim-packet.js';
import type { claimPresenter } from './claim.response.js';
import type { ClaimStore } from './claim.store.js';
import { CLAIMABLE_STATES, explainFinding, isBlockingPolicy } from './finding.explain.js';
import { TEST_CARRIER_POLICIES } from './ship.test-values.js';
import type { FindingPresenter } from './finding.response.js';
import type { FindingStore } from './finding.store.js';
import { carrierOf } from './shipment-columns.js';
import type { ClaimSubmissionRecord, ClaimSubmissionStatus, FindingRecord } from './ship.types.js';

/** spec 8.6: claim submissions `limit` defaults to 50. */
export const SUBMISSIONS_DEFAULT_LIMIT = 50;
/** Where packetUrl points (not a contract operation: a document the sandbox serves). */
export const PACKET_PATH = '/api/ship/claims/submissions/:submissionId/packet.pdf';
const ATTEMPTS = 5;

export interface ClaimPeers {
  claims: ClaimStore;
  findings: FindingStore;
  present: FindingPresenter;
  shape: ReturnType<typeof claimPresenter>;
  tenants: Pick<TenantStore, 'get' | 'settings'>;
  /** The bearer check of an operation (the packet reads as getClaimSubmission does). */
  authenticate: (headers: Record<string, string | undefined>) => Promise<Principal | null>;
}

const envelope = async (shape: ClaimPeers['shape'], record: ClaimSubmissionRecord, status = 200) => ({ status, body: { submission: await shape(record) } });

export function claimRoutes(deps: Pick<KernelDeps, 'clocks' | 'ids' | 'config' | 'defects' | 'log'>, peers: ClaimPeers) {
  const { claims, findings, present, shape, tenants } = peers;
  const normalizeCarrier = (carrier: string) => carrierOf(carrier) ?? carrier.trim().toUpperCase();

  /** load -> transition -> changes -> compare-and-set save, retried on a lost race. */
  async function move(tenantId: string, id: string, action: ClaimAction, context: ClaimContext, change: (s: ClaimSubmissionRecord, to: ClaimSubmissionStatus, now: string) => Partial<ClaimSubmissionRecord> | Promise<Partial<ClaimSubmissionRecord>>) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const submission = await claims.get(tenantId, id);
      if (!submission) throw notFound('claim submission');
      // defect injection (SIM_DEFECTS): claims.closed-reopened lets confirm-credit move a CLOSED submission
      const reopened = submission.status === 'CLOSED' && action === 'confirm-credit' && deps.defects.has('claims.closed-reopened');
      let to = reopened ? afterConfirmCredit(context, 'ACKNOWLEDGED') : transition(claimMachine, submission.status, action, context, { subcode: 'invalid_transition', submissionId: id });
      // defect injection (SIM_DEFECTS): claims.partial-from-failed-stays-failed keeps FAILED on a partial confirm-credit
      if (action === 'confirm-credit' && context.creditOutcome === 'partial' && submission.status === 'FAILED' && deps.defects.has('claims.partial-from-failed-stays-failed')) to = 'FAILED';
      const now = deps.clocks.of(tenantId).nowIso();
      const saved = await claims.update({ ...submission, ...(await change(submission, to, now)), status: to, updatedAt: now });
      if (saved) return saved;
    }
    throw actionNotAllowed('the submission kept changing while the action was applied; try again', { subcode: 'invalid_transition', submissionId: id, action });
  }

  const refuseBlockedCarrier = async (tenantId: string, carrier: string, action: string) => {
    // The tenant's policy, else a test carrier's built-in one (ship.test-values.ts).
    const policy = (await tenants.settings(tenantId)).carrierPolicies?.[carrier]?.policy ?? TEST_CARRIER_POLICIES[carrier] ?? null;
    // defect injection (SIM_DEFECTS): ship.carrier-policy-ignored lets a blocked carrier's claims through
    if (isBlockingPolicy(policy) && !deps.defects.has('ship.carrier-policy-ignored')) throw actionNotAllowed(`carrier ${carrier} is configured as ${policy} for this tenant: ${action} is blocked`, { subcode: 'carrier_blocked', carrier, policy, action });
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
        const explained = explainFinding(f, { ...(await view.context(f)), activeLink: null });
        const reason =
          f.carrier !== carrier
            ? `Finding is for carrier ${f.carrier}, not ${carrier}`
            : explained.claimEligibility !== 'ELIGIBLE' || !CLAIMABLE_STATES.includes(f.workflowStatus)
              ? explained.claimBlockerReason
              : null;
        if (reason !== null) invalidFindingStates.push({ findingId: f.id, workflowStatus: f.workflowStatus, claimBlockerReason: reason });
      }
      // defect injection (SIM_DEFECTS): claims.ineligible-accepted skips rules 1-2
      if (invalidFindingStates.length && !deps.defects.has('claims.ineligible-accepted')) {
        throw new ApiError('INVALID_REQUEST', `${invalidFindingStates.length} finding${invalidFindingStates.length === 1 ? ' is' : 's are'} not eligible for a claim submission`, { invalidFindingStates });
      }
      // Rule 3: a link to a submission still holding the finding.
      const duplicateLinks = [];
      for (const f of found) {
        // defect injection (SIM_DEFECTS): claims.failed-submission-holds-findings counts a FAILED submission as active
        const link = await claims.activeLink(tenantId, f.id, deps.defects.has('claims.failed-submission-holds-findings') ? ['CREDIT_CONFIRMED', 'CLOSED'] : undefined);
        if (link) duplicateLinks.push({ findingId: f.id, submissionId: link.submissionId, submissionStatus: link.status });
      }
      // defect injection (SIM_DEFECTS): claims.duplicate-link-allowed skips rule 3
      if (duplicateLinks.length && !deps.defects.has('claims.duplicate-link-allowed')) {
        throw actionNotAllowed(`${duplicateLinks.length} finding${duplicateLinks.length === 1 ? ' is' : 's are'} already linked to an active claim submission`, { subcode: 'invalid_finding_state', duplicateLinks });
      }
      const now = deps.clocks.of(tenantId).nowIso();
      const record: ClaimSubmissionRecord = {
        id: deps.ids.uuid(), tenantId, status: 'DRAFT', carrier, findingIds: found.map((f) => f.id), packetUrl: null, packetPath: null, submittedAt: null, acknowledgedAt: null,
        creditConfirmedAt: null, failedAt: null, failureReason: null, externalReference: null, notes: body.notes ?? null, amountsByFinding: null, closedAt: null, createdAt: now, updatedAt: now,
      };
      await claims.create(record);
      return envelope(shape, record, 201);
    },

    async listClaimSubmissions({ principal, query }) {
      const limit = query.limit ?? SUBMISSIONS_DEFAULT_LIMIT;
      const offset = query.offset ?? 0;
      const page = await claims.list(principal.tenantId, query.status, { limit, offset });
      const submissions = [];
      for (const s of page.items) submissions.push(await shape(s));
      // defect injection (SIM_DEFECTS): claims.has-more-on-last-page says hasMore true on every page
      const hasMoreOnLast = deps.defects.has('claims.has-more-on-last-page');
      return { status: 200, body: { submissions, total: page.total, limit, offset, hasMore: offset + page.items.length < page.total || hasMoreOnLast } };
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
      const saved = await move(tenantId, params.submissionId, 'generate-packet', {}, async (s, _to, now) => {
        const bundled = (await Promise.all(s.findingIds.map((id) => findings.get(tenantId, id)))).filter((f): f is FindingRecord => f !== undefined);
        const packetPath = await writePacket(deps, { submission: s, claimant: { tenantId, name: tenant?.name ?? tenantId }, findings: bundled, generatedAt: now });
        return { packetPath, packetUrl: `${origin}${PACKET_PATH.replace(':submissionId', s.id)}` };
      }).catch(async (error: unknown) => {
        if (error instanceof ApiError) throw error;
        // spec 3.4: a failure at packet generation -> FAILED, with the reason.
        deps.log.warn({ err: error, submissionId: params.submissionId }, 'claim packet generation failed');
        return move(tenantId, params.submissionId, 'fail', {}, (_s, _to, now) => ({ failedAt: now, failureReason: `packet generation failed: ${(error as Error).message}` }));
      });
      return envelope(shape, saved);
    },

    async submitClaimSubmission({ principal, params, body }) {
      const current = await claims.get(principal.tenantId, params.submissionId);
      if (current?.status === 'READY') await refuseBlockedCarrier(principal.tenantId, current.carrier, 'submitting the claim');
      const saved = await move(principal.tenantId, params.submissionId, 'submit', {}, (_s, _to, now) => ({
        externalReference: body.externalReference.trim(),
        // defect injection (SIM_DEFECTS): claims.submitted-at-missing leaves submittedAt null
        submittedAt: deps.defects.has('claims.submitted-at-missing') ? null : now,
        // defect injection (SIM_DEFECTS): claims.packet-url-dropped clears packetUrl on submit
        ...(deps.defects.has('claims.packet-url-dropped') ? { packetUrl: null } : {}),
      }));
      // defect injection (SIM_DEFECTS): ship.claim-moves-finding-status ties the findings' workflow to the submission's
      if (deps.defects.has('ship.claim-moves-finding-status')) {
        for (const id of saved.findingIds) {
          const finding = await findings.get(principal.tenantId, id);
          if (finding?.workflowStatus === 'DISPUTED') await findings.update({ ...finding, workflowStatus: 'SUBMITTED', updatedAt: saved.updatedAt });
        }
      }
      return envelope(shape, saved);
    },

    async acknowledgeClaimSubmission({ principal, params, body }) {
      // defect injection (SIM_DEFECTS): claims.acknowledged-at-backdated stamps acknowledgedAt a day before now
      const stamp = (now: string) => (deps.defects.has('claims.acknowledged-at-backdated') ? new Date(Date.parse(now) - 86_400_000).toISOString() : now);
      const saved = await move(principal.tenantId, params.submissionId, 'acknowledge', {}, (_s, _to, now) => ({ externalReference: body.externalReference.trim(), acknowledgedAt: stamp(now) }));
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
      // defect injection (SIM_DEFECTS): claims.confirm-after-confirmed-200 answers a repeat after CREDIT_CONFIRMED with 200
      if (current.status === 'CREDIT_CONFIRMED' && deps.defects.has('claims.confirm-after-confirmed-200')) return envelope(shape, current);
      const amounts = async () => given ?? Object.fromEntries(await Promise.all(current.findingIds.map(async (id) => [id, (await findings.get(tenantId, id))?.recoverableAmount ?? 0] as const)));
      const amountsByFinding = await amounts();
      const saved = await move(tenantId, params.submissionId, 'confirm-credit', { creditOutcome }, (s, to, now) => ({
        amountsByFinding,
        // defect injection (SIM_DEFECTS): claims.submitted-at-cleared clears submittedAt on confirm-credit
        ...(deps.defects.has('claims.submitted-at-cleared') ? { submittedAt: null } : {}),
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
    // defect injection (SIM_DEFECTS): claims.packet-other-tenant serves any tenant's packet
    const leaked = !submission && deps.defects.has('claims.packet-other-tenant') ? await claims.getAnyTenant(String(ctx.params?.submissionId ?? '')) : undefined;
    const owned = submission ?? leaked;
    if (!owned?.packetPath) throw notFound('claim packet');
    ctx.status = 200;
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="claim-${owned.id}.pdf"`);
    ctx.body = await readFile(owned.packetPath);
  };

  /** spec 3.4 operator close (control API only): from any state but CLOSED; never reopened. */
  const closeSubmission = async (tenantId: string, submissionId: string, reason: string | null = null) =>
    shape(await move(tenantId, submissionId, 'close', {}, (_s, _to, now) => ({ closedAt: now, closeReason: reason })));

  return { handlers, packetRoute, closeSubmission };
}
