// The finding endpoints (spec 3.3, 4.5): the list with status counts, the batch action, and one route per
// workflow action: request -> load -> carrier policy -> transition() -> compare-and-set save -> the bare
// finding (contracts/README.md decision 15). A move the machine lacks is 409 ACTION_NOT_ALLOWED with
// subcode invalid_transition; a carrier-facing move (submit, carrier-review) for a carrier the tenant's
// policy blocks is 409 with subcode carrier_blocked (spec 4.5 rule 4).
import type { KernelDeps } from '../../kernel/deps.js';
import { ApiError, actionNotAllowed, invalidRequest, notFound } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import { canTransition, transition } from '../../kernel/machine.js';
import { isBlockingPolicy } from './finding.explain.js';
import { CARRIER_FACING_ACTIONS, findingMachine, type FindingAction } from './finding.machine.js';
import type { FindingPresenter } from './finding.response.js';
import type { FindingStore } from './finding.store.js';
import type { CreditConfirmation, FindingItem, FindingRecord, FindingWorkflowStatus } from './ship.types.js';

/** spec 8.6: findings `limit` defaults to 50. */
export const FINDINGS_DEFAULT_LIMIT = 50;
const STATUSES: readonly FindingWorkflowStatus[] = findingMachine.states;
/** Lost compare-and-set races retried before giving up (each retry decides again on what it reads). */
const ATTEMPTS = 5;

export const CREDIT_REMEDIATION = 'POST /api/ship/findings/{findingId}/credit';

export function findingRoutes(deps: Pick<KernelDeps, 'clocks' | 'defects'>, findings: FindingStore, present: FindingPresenter) {
  /** Timestamps and records each move sets besides the state. */
  const effects = (f: FindingRecord, action: FindingAction, now: string, credit?: { amount: number; confirmation: CreditConfirmation }): Partial<FindingRecord> => {
    switch (action) {
      case 'dispute':
        return { disputedAt: now };
      case 'submit':
        return { submittedAt: now };
      case 'carrier-review':
        return { carrierReviewAt: now };
      case 'credit':
        return { credit: { amount: credit!.amount, confirmation: credit!.confirmation, creditedAt: now }, resolvedAt: now };
      case 'reject':
      case 'dismiss':
        return { resolvedAt: now };
      case 'reopen':
        // Back to OPEN: the resolution (and a credit) no longer stands; the dispute timeline is kept.
        return { reopenedAt: now, resolvedAt: null, credit: null };
    }
    return f;
  };

  async function act(tenantId: string, findingId: string, action: FindingAction, credit?: { amount: number; confirmation: CreditConfirmation }): Promise<FindingItem> {
    const view = await present(tenantId);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const finding = await findings.get(tenantId, findingId);
      if (!finding) throw notFound('finding');
      const details = { subcode: 'invalid_transition', findingId };
      // defect injection (SIM_DEFECTS): ship.reopen-from-open allows reopen on an OPEN finding
      const reopenOpen = action === 'reopen' && finding.workflowStatus === 'OPEN' && deps.defects.has('ship.reopen-from-open');
      // defect injection (SIM_DEFECTS): ship.dispute-from-dismissed allows dispute on a DISMISSED finding
      const disputeDismissed = action === 'dispute' && finding.workflowStatus === 'DISMISSED' && deps.defects.has('ship.dispute-from-dismissed');
      // defect injection (SIM_DEFECTS): ship.carrier-review-from-disputed moves a DISPUTED finding to CARRIER_REVIEW
      const reviewDisputed = action === 'carrier-review' && finding.workflowStatus === 'DISPUTED' && deps.defects.has('ship.carrier-review-from-disputed');
      // defect injection (SIM_DEFECTS): ship.reject-after-credit lets reject leave a CREDITED finding (terminal)
      const rejectCredited = action === 'reject' && finding.workflowStatus === 'CREDITED' && deps.defects.has('ship.reject-after-credit');
      if (!reopenOpen && !disputeDismissed && canTransition(findingMachine, finding.workflowStatus, action) && CARRIER_FACING_ACTIONS.includes(action)) {
        const policy = view.policyOf(finding.carrier);
        // defect injection (SIM_DEFECTS): ship.carrier-policy-ignored lets a blocked carrier's findings move on
        if (isBlockingPolicy(policy) && !deps.defects.has('ship.carrier-policy-ignored')) {
          throw actionNotAllowed(`carrier ${finding.carrier} is configured as ${policy} for this tenant: ${action} is blocked`, { subcode: 'carrier_blocked', carrier: finding.carrier, policy, currentState: finding.workflowStatus, action, findingId });
        }
      }
      const to = reopenOpen ? 'OPEN' : disputeDismissed ? 'DISPUTED' : reviewDisputed ? 'CARRIER_REVIEW' : rejectCredited ? 'REJECTED' : transition(findingMachine, finding.workflowStatus, action, undefined, details);
      const now = deps.clocks.of(tenantId).nowIso();
      const saved = await findings.update({ ...finding, ...effects(finding, action, now, credit), workflowStatus: to, updatedAt: now });
      if (saved) return view.item(saved);
    }
    throw actionNotAllowed('the finding kept changing while the action was applied; try again', { subcode: 'invalid_transition', findingId, action });
  }

  const single = (action: FindingAction) => async ({ principal, params }: { principal: { tenantId: string }; params: { findingId: string } }) => ({ status: 200, body: await act(principal.tenantId, params.findingId, action) });

  return {
    async listFindings({ principal, query }) {
      const limit = query.limit ?? FINDINGS_DEFAULT_LIMIT;
      const offset = query.offset ?? 0;
      // defect injection (SIM_DEFECTS): ship.findings-filter-ignored drops the workflowStatus filter
      const status = deps.defects.has('ship.findings-filter-ignored') ? undefined : query.workflowStatus;
      const [page, counts] = await Promise.all([findings.list(principal.tenantId, status, { limit, offset }), findings.countByStatus(principal.tenantId)]);
      const view = await present(principal.tenantId);
      const statusCounts = Object.fromEntries(STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<FindingWorkflowStatus, number>;
      const items = await Promise.all(page.items.map((f) => view.item(f)));
      // defect injection (SIM_DEFECTS): ship.findings-has-more-on-last-page says hasMore true on every page
      const hasMoreOnLast = deps.defects.has('ship.findings-has-more-on-last-page');
      return { status: 200, body: { findings: items, statusCounts, total: page.total, limit, offset, hasMore: offset + page.items.length < page.total || hasMoreOnLast } };
    },

    async applyFindingBatchAction({ principal, body }) {
      // spec 4.5: batch credit is disabled; each credit is a billing record of its own.
      if (body.action === 'credit') throw invalidRequest('batch action credit is disabled; record each credit on its finding', 'action', { remediation: CREDIT_REMEDIATION });
      const action = body.action as FindingAction;
      const results = [];
      for (const findingId of body.findingIds) {
        try {
          results.push({ findingId, ok: true, finding: await act(principal.tenantId, findingId, action) });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          results.push({ findingId, ok: false, error: error.toEnvelope() });
        }
      }
      const succeeded = results.filter((r) => r.ok).length;
      return { status: 200, body: { action: body.action, succeeded, failed: results.length - succeeded, results } };
    },

    disputeFinding: single('dispute'),
    dismissFinding: single('dismiss'),
    submitFinding: single('submit'),
    markFindingCarrierReview: single('carrier-review'),
    rejectFinding: single('reject'),
    reopenFinding: single('reopen'),
    async creditFinding({ principal, params, body }) {
      // The contract validated amount > 0 and a complete confirmation (400 naming the field).
      return { status: 200, body: await act(principal.tenantId, params.findingId, 'credit', { amount: body.amount, confirmation: body.confirmation }) };
    },
  } satisfies HandlerTable;
}
