// DELETE /_sim/tenants/{tenantId} (sandbox-defined): removes a tenant and every record it owns, so that a
// conformance run in the simulator profile can leave the sandbox's tenant list as it found it. Tenants are
// an operator's concern (spec 1: no public operation creates or deletes one), so this lives in the control
// layer. It reaches the domains' collections through the store seam by their declared indexes (never a
// scan): first the collections keyed by tenant, then the records that hang off them (a feed session's rows
// and issues, a job's webhook configuration and preview rows, a finding's claim link), then the tenant's
// own records (clock, measures configuration, payment customer) and the tenant itself.
//
// What stays: a classify review snapshot replaced by a later review of the same session (no index names
// it; nobody can read it once the session is gone), idempotency records (keyed by a hash of tenant, endpoint and key; unreachable once the
// tenant's keys are gone, and they expire with the idempotency TTL, spec 8.5), and whatever the
// append-only transition log keeps as audit evidence.
import type { KernelDeps } from '../kernel/deps.js';
import type { Collection, FieldValue, StoredRecord } from '../kernel/store/collection.js';

/** Collections whose records carry `tenantId` and are served by an index on it (with extra pinned keys). */
// `declare`: the domain serves its reads by id only, so the purge declares the index it needs (through the
// seam, as a domain would: an SQL index), rather than reading the whole collection.
const BY_TENANT: ReadonlyArray<{ name: string; pins?: Array<Record<string, FieldValue>>; declare?: true }> = [
  { name: 'integrationKeys' },
  { name: 'billingSetupIntents' },
  { name: 'catalogItems' },
  { name: 'simaResults', pins: [{ current: true }, { current: false }] },
  { name: 'classifications', declare: true },
  { name: 'classificationReviews' },
  { name: 'landedCostUsage' },
  { name: 'shipAgreements' },
  { name: 'shipOrders' },
  { name: 'shipShipments' },
  { name: 'shipUploadRegistry' },
  { name: 'shipClaimSubmissions' },
  { name: 'webhookDeliveries' },
];

type Keyed = StoredRecord & Record<string, unknown>;

export function tenantPurge(deps: KernelDeps) {
  const open = (name: string) => deps.store.collection<Keyed, string>(name);

  /** Every record matching `where` (paged, so a large tenant is read in bounded pieces). */
  const matching = async (collection: Collection<Keyed, string>, where: Record<string, FieldValue>): Promise<Keyed[]> => {
    const found: Keyed[] = [];
    let after: string | null = null;
    do {
      const page = await collection.query({ where, limit: 1000, after });
      found.push(...page.items);
      after = page.nextCursor;
    } while (after);
    return found;
  };

  return {
    /** Deletes what the tenant owns, then the tenant; returns how many records went. The caller checks it exists. */
    async purge(tenantId: string, paymentCustomerId: string | null): Promise<number> {
      let removed = 0;
      const drop = async (collection: Collection<Keyed, string>, records: Iterable<Keyed>) => {
        for (const record of records) if (await collection.delete(record.id)) removed++;
      };
      const dropId = async (name: string, id: string) => {
        if (await open(name).delete(id)) removed++;
      };

      // Children first, found through their parents, while the parents can still be read.
      const feedSessions = open('feedSessions');
      for (const session of await matching(feedSessions, { tenantId })) {
        for (const child of ['feedSkus', 'feedIssues']) await drop(open(child), await matching(open(child), { sessionId: session.id }));
        // The session names its latest reviewed snapshot (a snapshot replaced by a later review is not named).
        if (typeof session.reviewedSnapshotId === 'string') await dropId('feedReviews', session.reviewedSnapshotId);
      }
      await drop(feedSessions, await matching(feedSessions, { tenantId }));

      const jobs = open('jobs');
      const tenantJobs = await matching(jobs, { tenantId });
      for (const job of tenantJobs) {
        await drop(open('feedPreviewRows'), await matching(open('feedPreviewRows'), { jobId: job.id }));
        await dropId('webhookConfigs', job.id);
      }
      await drop(jobs, tenantJobs);

      const findings = open('shipFindings');
      const tenantFindings = await matching(findings, { tenantId });
      for (const finding of tenantFindings) await drop(open('shipClaimLinks'), await matching(open('shipClaimLinks'), { findingId: finding.id }));
      await drop(findings, tenantFindings);

      for (const { name, pins = [{}], declare } of BY_TENANT) {
        const collection = declare
          ? deps.store.collection<Keyed, string>(name, { fields: { tenantId: (r) => r.tenantId as string }, indexes: { purgeByTenant: { keys: ['tenantId'] } } })
          : open(name);
        for (const pin of pins) await drop(collection, await matching(collection, { tenantId, ...pin }));
      }
      await dropId('simaMeasuresConfig', tenantId);
      await dropId('tenantClocks', tenantId);
      if (paymentCustomerId) await dropId('paymentCustomers', paymentCustomerId);
      await dropId('tenants', tenantId);
      return removed;
    },
  };
}
