// Billable landed-cost usage (`landedCostUsage`): the only file that touches the collection. One record per
// billable quote: every engine result (spec 4.6: `authoritative` or `rate_not_available`); the
// unconfigured-corridor business outcome records none (rule 5: "no billable usage"), nor does a refused
// request. The billing domain holds the payment-method setup only (spec 4.1, 2.8), with no usage of its
// own, so the quotes' usage lives with the operation that bills; the control API reads it.
import type { KernelDeps } from '../../kernel/deps.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';

export interface UsageRecord {
  id: string;
  rev?: number;
  tenantId: string;
  operationId: 'calculateLandedCost';
  /** The engine status billed. */
  status: 'authoritative' | 'rate_not_available';
  hsCode: string;
  originCountry: string;
  destinationCountry: string;
  currency: string | null;
  principalType: 'integration' | 'dashboard';
  keyId: string | null;
  requestId: string;
  /** On the tenant's virtual clock. */
  recordedAt: string;
}

export interface UsagePage {
  tenantId: string;
  /** Billable quotes recorded for the tenant, in all. */
  billableQuotes: number;
  limit: number;
  offset: number;
  /** Newest first. */
  records: Omit<UsageRecord, 'rev'>[];
}

export function usageStore(deps: KernelDeps) {
  const usage = deps.store.collection<UsageRecord, 'tenantId' | 'recordedAt'>('landedCostUsage', {
    fields: { tenantId: (u) => u.tenantId, recordedAt: (u) => u.recordedAt },
    // Appends in time order; read newest first (the reverse of the index order).
    indexes: { byTenant: { keys: ['tenantId'], order: [['recordedAt', 'asc']] } },
  });
  return {
    /** Appends one record (insert only: a record is never rewritten). */
    async record(record: Omit<UsageRecord, 'id' | 'recordedAt'>): Promise<UsageRecord> {
      const created = await usage.create({ ...record, id: deps.ids.uuid(), recordedAt: deps.clocks.of(record.tenantId).nowIso() });
      if (!created) throw new Error('a usage record id was issued twice');
      return created;
    },
    async page(tenantId: string, page: { limit: number; offset: number }): Promise<UsagePage> {
      const found = await usage.query({ where: { tenantId }, orderBy: [['recordedAt', 'desc']], limit: page.limit, offset: page.offset });
      return { tenantId, billableQuotes: found.total, limit: page.limit, offset: page.offset, records: found.items.map(({ rev: _rev, ...record }) => record) };
    },
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(usage, { tenantId }),
  };
}

export type UsageStore = ReturnType<typeof usageStore>;
