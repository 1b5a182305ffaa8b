// Claim submissions (`shipClaimSubmissions`) and their links to findings (`shipClaimLinks`): the only file
// touching them. A link says a finding is bundled in a submission; whether it still holds the finding
// depends on the submission's status (spec 4.5 rule 3), so links are never rewritten, only read with it.
import type { KernelDeps } from '../../kernel/deps.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import { transitionLog } from '../../kernel/transition-log.js';
import { INACTIVE_SUBMISSION_STATES } from './claim.machine.js';
import type { ClaimSubmissionRecord, ClaimSubmissionStatus } from './ship.types.js';

type Field = 'tenantId' | 'status' | 'createdAt';
interface ClaimLink {
  id: string;
  rev?: number;
  tenantId: string;
  findingId: string;
  submissionId: string;
}

export function claimStore(deps: Pick<KernelDeps, 'store' | 'ids' | 'clocks'>) {
  const submissions = transitionLog(deps).tracked(deps.store.collection<ClaimSubmissionRecord, Field>('shipClaimSubmissions', {
    fields: { tenantId: (s) => s.tenantId, status: (s) => s.status, createdAt: (s) => s.createdAt },
    indexes: {
      // spec 4.5 GET /api/ship/claims/submissions: newest first, optionally in one status.
      byTenant: { keys: ['tenantId'], order: [['createdAt', 'desc']] },
      byStatus: { keys: ['tenantId', 'status'], order: [['createdAt', 'desc']] },
    },
  }), { machine: 'claim-submission', state: (s) => s.status, tenantId: (s) => s.tenantId });
  const links = deps.store.collection<ClaimLink, 'findingId'>('shipClaimLinks', {
    fields: { findingId: (l) => l.findingId },
    indexes: { byFinding: { keys: ['findingId'] } },
  });

  const get = async (tenantId: string, id: string) => {
    const found = await submissions.get(id);
    return found?.tenantId === tenantId ? found : undefined;
  };

  return {
    get,
    /** Defect injection only (claims.packet-other-tenant): a submission whatever its tenant. */
    getAnyTenant: (id: string) => submissions.get(id),
    update: (record: ClaimSubmissionRecord) => submissions.update(record),
    async create(record: ClaimSubmissionRecord) {
      const created = await submissions.create(record);
      for (const findingId of record.findingIds) await links.create({ id: deps.ids.uuid(), tenantId: record.tenantId, findingId, submissionId: record.id });
      return created;
    },
    /** Newest first, or oldest first (the same index read backwards). */
    list: (tenantId: string, status: ClaimSubmissionStatus | undefined, page: { limit: number; offset: number; order?: 'newest-first' | 'oldest-first' }) =>
      submissions.query({ where: status ? { tenantId, status } : { tenantId }, ...(page.order === 'oldest-first' ? { orderBy: [['createdAt', 'asc']] as const } : {}), limit: page.limit, offset: page.offset }),
    /** The submission still holding the finding (status not CREDIT_CONFIRMED, CLOSED or FAILED), if any. */
    async activeLink(tenantId: string, findingId: string, inactive: readonly ClaimSubmissionStatus[] = INACTIVE_SUBMISSION_STATES): Promise<{ submissionId: string; status: ClaimSubmissionStatus } | null> {
      for (const link of (await links.query({ where: { findingId } })).items) {
        const submission = await get(tenantId, link.submissionId);
        if (submission && !inactive.includes(submission.status)) return { submissionId: submission.id, status: submission.status };
      }
      return null;
    },
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(submissions, { tenantId }),
    /** With the finding: its claim links. */
    purgeFindingLinks: (findingId: string) => deleteMatching(links, { findingId }),
  };
}

export type ClaimStore = ReturnType<typeof claimStore>;
