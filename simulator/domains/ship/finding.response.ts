// The one place a finding's response body is shaped (contract Finding; spec 2.6): the record's fields the
// contract names, plus the explanation fields worked out when it is read (finding.explain.ts; what a deviation
// may change of them is decided at SHIP_HOOKS.findingExplanation). Also used for the findings inside a claim
// submission (spec 2.7: "the same explanation fields as the finding record").
import { carrierPolicyOf } from './carrier-policy.js';
import type { KernelDeps } from '../../kernel/deps.js';
import type { TenantStore } from '../tenants/index.js';
import type { ClaimStore } from './claim.store.js';
import { CLAIMABLE_STATES, explainFinding, type ExplainContext, type Explanation } from './finding.explain.js';
import { SHIP_HOOKS } from './ship.hooks.js';
import type { FindingItem, FindingRecord } from './ship.types.js';

function toFindingItem(f: FindingRecord, explanation: Explanation): FindingItem {
  return {
    id: f.id,
    shipmentId: f.shipmentId,
    carrier: f.carrier,
    ...(f.accountNumber ? { accountNumber: f.accountNumber } : {}),
    invoiceNumber: f.invoiceNumber,
    trackingNumber: f.trackingNumber,
    findingType: f.findingType,
    reasonCode: f.reasonCode,
    billedAmount: f.billedAmount,
    expectedAmount: f.expectedAmount,
    recoverableAmount: f.recoverableAmount,
    currency: f.currency,
    disputeDeadline: f.disputeDeadline,
    workflowStatus: f.workflowStatus,
    ...explanation,
    headline: f.headline,
    credit: f.credit,
    disputedAt: f.disputedAt,
    submittedAt: f.submittedAt,
    carrierReviewAt: f.carrierReviewAt,
    resolvedAt: f.resolvedAt,
    reopenedAt: f.reopenedAt,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
  };
}

/** Shapes findings of one tenant, reading the carrier policies and the clock once per call. */
export function findingPresenter(deps: Pick<KernelDeps, 'clocks' | 'defects'>, tenants: Pick<TenantStore, 'settings'>, claims: Pick<ClaimStore, 'activeLink'>) {
  return async (tenantId: string) => {
    const policies = (await tenants.settings(tenantId)).carrierPolicies;
    const today = deps.clocks.of(tenantId).nowIso().slice(0, 10);
    const policyOf = (carrier: string) => carrierPolicyOf(policies, carrier);
    const claimableStates = deps.defects.at(SHIP_HOOKS.claimableStates, CLAIMABLE_STATES);
    const context = async (f: FindingRecord): Promise<ExplainContext> => ({ policy: policyOf(f.carrier), today, activeLink: await claims.activeLink(tenantId, f.id), claimableStates });
    return {
      policyOf,
      context,
      item: async (f: FindingRecord) => {
        const known = await context(f);
        return toFindingItem(f, deps.defects.at(SHIP_HOOKS.findingExplanation, explainFinding(f, known), { finding: f, context: known }));
      },
    };
  };
}

export type FindingPresenter = ReturnType<typeof findingPresenter>;
