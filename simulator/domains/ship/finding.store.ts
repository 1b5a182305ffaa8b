// Findings (`shipFindings`): the only file touching the collection. The list (spec 4.5 GET
// /api/ship/findings) pages a tenant's findings, optionally in one workflow state, newest upload first
// then file order; the status counts are one GROUP BY; a shipment's findings come by their own index.
import type { KernelDeps } from '../../kernel/deps.js';
import { allMatching, deleteMatching } from '../../kernel/store/delete-matching.js';
import { transitionLog } from '../../kernel/transition-log.js';
import type { FindingRecord, FindingWorkflowStatus } from './ship.types.js';

type Field = 'tenantId' | 'workflowStatus' | 'shipmentId' | 'createdAt' | 'row';

export function findingStore(deps: Pick<KernelDeps, 'store' | 'clocks'>) {
  const findings = transitionLog(deps).tracked(deps.store.collection<FindingRecord, Field>('shipFindings', {
    fields: { tenantId: (f) => f.tenantId, workflowStatus: (f) => f.workflowStatus, shipmentId: (f) => f.shipmentId, createdAt: (f) => f.createdAt, row: (f) => f.row },
    indexes: {
      byTenant: { keys: ['tenantId'], order: [['createdAt', 'desc'], ['row', 'asc']] },
      byStatus: { keys: ['tenantId', 'workflowStatus'], order: [['createdAt', 'desc'], ['row', 'asc']] },
      byShipment: { keys: ['shipmentId'], order: [['row', 'asc']] },
    },
  }), { machine: 'finding', state: (f) => f.workflowStatus, tenantId: (f) => f.tenantId });
  return {
    create: (record: FindingRecord) => findings.create(record),
    /** The tenant's finding, or undefined (another tenant's reads as absent: spec 7 NOT_FOUND). */
    get: async (tenantId: string, id: string) => {
      const found = await findings.get(id);
      return found?.tenantId === tenantId ? found : undefined;
    },
    update: (record: FindingRecord) => findings.update(record),
    /** Newest upload first then file order, or the exact reverse (the same index read backwards). */
    list: (tenantId: string, status: FindingWorkflowStatus | undefined, page: { limit: number; offset: number; order?: 'newest-first' | 'oldest-first' }) =>
      findings.query({ where: status ? { tenantId, workflowStatus: status } : { tenantId }, ...(page.order === 'oldest-first' ? { orderBy: [['createdAt', 'asc'], ['row', 'desc']] as const } : {}), limit: page.limit, offset: page.offset }),
    countByStatus: (tenantId: string) => findings.countGroups({ tenantId }, 'workflowStatus'),
    ofShipment: async (shipmentId: string) => (await findings.query({ where: { shipmentId } })).items,
    /** Every finding of the tenant (its index, in pages): DELETE /_sim/tenants/{tenantId} removes their claim links first. */
    ofTenant: (tenantId: string) => allMatching(findings, { tenantId }),
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(findings, { tenantId }),
  };
}

export type FindingStore = ReturnType<typeof findingStore>;
