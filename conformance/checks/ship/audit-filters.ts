// ship.audit-filters (spec 4.5, the v1.2.0 artifact): "GET /api/ship/audit | query `limit` (1..200), `offset`
// (>=0), `carrier` string, `outcome` (AT_RISK/CLEAR/NEEDS_REVIEW)": the audit list filters by carrier and by
// outcome. After an invoice upload (a fresh tenant with the control API), the audit is read unfiltered, then
// under each outcome, each carrier it lists and a carrier no shipment has:
//   audit-filter-holds       every filtered row matches the filter;
//   audit-filter-complete    in a fresh tenant, every unfiltered row that matches is listed under the filter.
// The audit row's fields are not shown (spec 2.6 "Shipment audit row [...] fields not shown"), so a row is
// judged only when it names its `carrier` or `outcome` as a string, and told apart by `shipmentId` or `id`.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { call, isProblem, tenantWithFindings, type ShipTenant } from './support.js';

const AUDIT_PATH = '/api/ship/audit';
/** spec 4.5: the outcome filter's values. */
const OUTCOMES = ['AT_RISK', 'CLEAR', 'NEEDS_REVIEW'] as const;
/** spec 8.6: ship audit `limit` is 1..200. */
const LIMIT = 200;
const MAX_ROWS = 2_000;
/** A carrier no shipment of the run has. */
const NO_SUCH_CARRIER = 'CONFORMANCE-NO-SUCH-CARRIER';

type Row = Record<string, unknown>;
const idOf = (row: Row) => (typeof row.shipmentId === 'string' ? row.shipmentId : typeof row.id === 'string' ? row.id : undefined);
const named = (row: Row, field: 'carrier' | 'outcome') => (typeof row[field] === 'string' ? (row[field] as string) : undefined);

/** Every row of the audit under `filter` (offset paging), or the exchange that broke the walk. */
async function auditRows(ctx: CheckContext, tenant: ShipTenant, filter: Record<string, string>): Promise<{ rows: Row[]; first: Exchange; complete: boolean } | { failed: Exchange }> {
  const rows: Row[] = [];
  let first: Exchange | undefined;
  for (let offset = 0; offset < MAX_ROWS; offset += LIMIT) {
    const query = new URLSearchParams({ ...filter, limit: String(LIMIT), offset: String(offset) });
    const page = await call(tenant.client, 'GET', `${AUDIT_PATH}?${query}`, {}, ctx.admin);
    first ??= page;
    const items = (page.response.body as { shipments?: unknown } | null)?.shipments;
    if (page.response.status !== 200 || !Array.isArray(items)) return { failed: page };
    rows.push(...(items as Row[]));
    if (items.length < LIMIT) return { rows, first, complete: true };
  }
  return { rows, first: first!, complete: false };
}

export const shipAuditFilters = defineCheck({
  id: 'ship.audit-filters',
  title: 'The ship audit list holds only and (in a fresh tenant) all the shipments of the carrier or outcome asked for',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    if (!ctx.contract.operation('listShipmentAudits')) ctx.skip(`contract ${ctx.contract.version} has no ship audit list (spec 4.5: the v1.2.0 artifact)`);
    const setup = await tenantWithFindings(ctx, 'Conformance ship audit filters', 6);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const { tenant } = setup;
    const all = await auditRows(ctx, tenant, {});
    if ('failed' in all) return ctx.fail('audit-served', `GET ${AUDIT_PATH} answered ${all.failed.response.status} without a shipments array (spec 4.5)`, all.failed);
    if (!all.rows.length) ctx.skip('the audit lists no shipment after an invoice upload: nothing to filter');
    const carriers = [...new Set(all.rows.map((row) => named(row, 'carrier')).filter((c): c is string => c !== undefined))].slice(0, 3);
    const cases: Array<{ param: 'carrier' | 'outcome'; value: string }> = [...OUTCOMES.map((value) => ({ param: 'outcome' as const, value })), ...[...carriers, NO_SUCH_CARRIER].map((value) => ({ param: 'carrier' as const, value }))];
    for (const { param, value } of cases) {
      const filtered = await auditRows(ctx, tenant, { [param]: value });
      const label = `GET ${AUDIT_PATH}?${param}=${value}`;
      if ('failed' in filtered) {
        ctx.fail('audit-served', `${label} answered ${filtered.failed.response.status} without a shipments array (spec 4.5)`, filtered.failed);
        continue;
      }
      const wrong = filtered.rows.filter((row) => named(row, param) !== undefined && named(row, param) !== value);
      if (wrong.length) {
        ctx.fail('audit-filter-holds', `${label} lists ${wrong.length} of ${filtered.rows.length} shipment(s) whose ${param} is another (${[...new Set(wrong.map((row) => named(row, param)))].join(', ')}) (spec 4.5: the audit filters by ${param})`, filtered.first);
        continue;
      }
      if (!tenant.fresh || !all.complete || !filtered.complete) continue;
      const listed = new Set(filtered.rows.map(idOf));
      const missing = all.rows.filter((row) => named(row, param) === value && idOf(row) !== undefined && !listed.has(idOf(row)));
      if (missing.length) ctx.fail('audit-filter-complete', `${label} leaves out ${missing.length} shipment(s) the unfiltered audit lists with ${param} ${value}, e.g. ${String(idOf(missing[0]))} (spec 4.5)`, filtered.first);
    }
  },
});
