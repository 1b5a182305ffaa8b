// The finding endpoints (spec 3.3, 4.5): the list with status counts, the batch action, and one route per
// workflow action: request -> load -> carrier policy -> transition() -> compare-and-set save -> the bare
// finding (contracts/README.md decision 15). A move the machine lacks is 409 ACTION_NOT_ALLOWED with
// subcode invalid_transition; a carrier-facing move (submit, carrier-review) for a carrier the tenant's
// policy blocks is 409 with subcode carrier_blocked (spec 4.5 rule 4).
import type { KernelDeps } from '../../kernel/deps.js';
import { ApiError, actionNotAllowed, invalidRequest, notFound } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import { canTransition } from '../../kernel/machine.js';
import { move } from '../../kernel/move.js';
import { isBlockingPolicy } from './finding.explain.js';
import { CARRIER_FACING_ACTIONS, findingMachine, type FindingAction } from './finding.machine.js';
import type { FindingPresenter } from './finding.response.js';
import type { FindingStore } from './finding.store.js';
import { SHIP_HOOKS } from './ship.hooks.js';
import type { CreditConfirmation, FindingItem, FindingRecord, FindingWorkflowStatus } from './ship.types.js';

/** spec 8.6: findings `limit` defaults to 50. */
const FINDINGS_DEFAULT_LIMIT = 50;
const STATUSES: readonly FindingWorkflowStatus[] = findingMachine.states;

const CREDIT_REMEDIATION = 'POST /api/ship/findings/{findingId}/credit';

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
        return { credit: deps.defects.at(SHIP_HOOKS.findingCreditRecorded, { amount: credit!.amount, confirmation: credit!.confirmation, creditedAt: now }, { finding: f }), resolvedAt: now };
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
    const details = { subcode: 'invalid_transition', findingId };
    const { record } = await move({
      machine: findingMachine,
      action,
      context: undefined,
      switches: deps.defects,
      details,
      load: () => findings.get(tenantId, findingId),
      missing: () => notFound('finding'),
      state: (f) => f.workflowStatus,
      precheck(f) {
        // spec 4.5 rule 4: a move the table allows that reaches the carrier is refused for a blocked carrier.
        if (!CARRIER_FACING_ACTIONS.includes(action) || !canTransition(findingMachine, f.workflowStatus, action, deps.defects)) return;
        const policy = view.policyOf(f.carrier);
        if (isBlockingPolicy(policy) && deps.defects.at(SHIP_HOOKS.carrierPolicyEnforced, true)) {
          throw actionNotAllowed(`carrier ${f.carrier} is configured as ${policy} for this tenant: ${action} is blocked`, { subcode: 'carrier_blocked', carrier: f.carrier, policy, currentState: f.workflowStatus, action, findingId });
        }
      },
      apply: (f, to) => {
        const now = deps.clocks.of(tenantId).nowIso();
        return { ...f, ...effects(f, action, now, credit), workflowStatus: to, updatedAt: now };
      },
      save: (next) => findings.update(next),
    });
    return view.item(record);
  }

  const single = (action: FindingAction) => async ({ principal, params }: { principal: { tenantId: string }; params: { findingId: string } }) => ({ status: 200, body: await act(principal.tenantId, params.findingId, action) });

  return {
    async listFindings({ principal, query }) {
      const limit = query.limit ?? FINDINGS_DEFAULT_LIMIT;
      const offset = query.offset ?? 0;
      const status = deps.defects.at(SHIP_HOOKS.findingsStatusFilter, query.workflowStatus);
      const [page, counts] = await Promise.all([findings.list(principal.tenantId, status, { limit, offset, order: deps.defects.at(SHIP_HOOKS.listOrder, 'newest-first') }), findings.countByStatus(principal.tenantId)]);
      const view = await present(principal.tenantId);
      const statusCounts = deps.defects.at(SHIP_HOOKS.findingsStatusCounts, Object.fromEntries(STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<FindingWorkflowStatus, number>);
      const items = await Promise.all(page.items.map((f) => view.item(f)));
      const hasMore = deps.defects.at(SHIP_HOOKS.findingsHasMore, offset + page.items.length < page.total);
      return { status: 200, body: { findings: items, statusCounts, total: page.total, limit, offset, hasMore } };
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
