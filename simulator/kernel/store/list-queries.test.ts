// Every list endpoint of the spec, as a query on the seam: the filters, orders and paging it needs are
// expressible over declared indexes, the journal store answers them, and each renders to one SQL statement.
// The collections here are shaped like the domains' (spec 4.1, 4.2, 4.4, 4.5); each domain declares its own.
import { describe, expect, it } from 'vitest';
import { planQuery, type CollectionSchema, type Query } from './collection.js';
import { countGroupsSql, indexStatements, querySql } from './sql.js';
import { openStore } from './store.js';

type Rec = { id: string; [field: string]: string | number | boolean | null };

interface Endpoint {
  endpoint: string;
  schema: CollectionSchema<Rec, string>;
  records: Rec[];
  queries: Array<{ query: Query<string>; expect: string[] }>;
  groups?: { where: Record<string, string>; field: string; expect: Record<string, number> };
}

const at = (n: number) => `2026-11-${String(10 + n).padStart(2, '0')}T00:00:00.000Z`;
const fields = (...names: string[]) => Object.fromEntries(names.map((n) => [n, (r: Rec) => r[n] ?? null]));

const ENDPOINTS: Endpoint[] = [
  {
    endpoint: 'GET /api/jobs (spec 4.1): type and status filters, newest first, limit/offset, count',
    schema: {
      fields: fields('tenantId', 'type', 'status', 'createdAt', 'seq'),
      indexes: {
        tenant: { keys: ['tenantId'], order: [['createdAt', 'desc'], ['seq', 'desc']] },
        tenantStatus: { keys: ['tenantId', 'status'], order: [['createdAt', 'desc'], ['seq', 'desc']] },
      },
    },
    records: [1, 2, 3, 4].map((n) => ({ id: `j${n}`, tenantId: 't', type: n % 2 ? 'sima_validation' : 'ship_upload', status: n < 3 ? 'COMPLETED' : 'PENDING', createdAt: at(n), seq: n })),
    queries: [
      { query: { where: { tenantId: 't' }, limit: 2, offset: 1 }, expect: ['j3', 'j2'] },
      { query: { where: { tenantId: 't', status: 'COMPLETED', type: 'ship_upload' }, limit: 50 }, expect: ['j2'] },
    ],
  },
  {
    endpoint: 'GET /api/sima/results and /summary (spec 4.2): outcome, workflow, workflow_not, hs_in_scope, is_stale, opaque cursor',
    schema: {
      fields: fields('tenantId', 'current', 'sku', 'outcome', 'workflowStatus', 'hsInScope', 'isStale'),
      indexes: { currentByTenant: { keys: ['tenantId', 'current'], order: [['sku', 'asc']] } },
    },
    records: ['A', 'B', 'C', 'D', 'E'].map((s, i) => ({
      id: `r${s}`,
      tenantId: 't',
      current: true,
      sku: `SKU-${s}`,
      outcome: i < 3 ? 'AT_RISK' : 'CLEARED',
      workflowStatus: i === 0 ? 'DISMISSED' : i < 3 ? 'OPEN' : null,
      hsInScope: i < 4,
      isStale: i === 2,
    })),
    queries: [
      { query: { where: { tenantId: 't', current: true, outcome: 'AT_RISK', workflowStatus: { notIn: ['DISMISSED'] }, isStale: false }, limit: 1000 }, expect: ['rB'] },
      { query: { where: { tenantId: 't', current: true, workflowStatus: 'OPEN', hsInScope: true }, limit: 1 }, expect: ['rB'] },
    ],
  },
  {
    endpoint: 'GET /api/trade/feeds/{id}/skus and /issues (spec 4.4): per session, in file order, blocking filter',
    schema: {
      fields: fields('sessionId', 'rowNumber', 'isBlocking'),
      indexes: { bySession: { keys: ['sessionId'], order: [['rowNumber', 'asc']] } },
    },
    records: [1, 2, 3].map((n) => ({ id: `i${n}`, sessionId: 's', rowNumber: n, isBlocking: n === 2 })),
    queries: [
      { query: { where: { sessionId: 's' }, limit: 2, offset: 1 }, expect: ['i2', 'i3'] },
      { query: { where: { sessionId: 's', isBlocking: true }, limit: 500 }, expect: ['i2'] },
    ],
  },
  {
    endpoint: 'GET /api/ship/findings (spec 4.5): workflowStatus filter, status counts',
    schema: {
      fields: fields('tenantId', 'workflowStatus', 'createdAt'),
      indexes: { byTenant: { keys: ['tenantId'], order: [['createdAt', 'desc']] } },
    },
    records: ['OPEN', 'OPEN', 'DISPUTED', 'CREDITED'].map((w, n) => ({ id: `f${n}`, tenantId: 't', workflowStatus: w, createdAt: at(n) })),
    queries: [{ query: { where: { tenantId: 't', workflowStatus: { in: ['OPEN', 'DISPUTED'] } }, limit: 500 }, expect: ['f2', 'f1', 'f0'] }],
    groups: { where: { tenantId: 't' }, field: 'workflowStatus', expect: { OPEN: 2, DISPUTED: 1, CREDITED: 1 } },
  },
  {
    endpoint: 'GET /api/ship/claims/submissions (spec 4.5) and GET /api/ship/audit (v1.2.0): newest first, status filter, limit/offset',
    schema: {
      fields: fields('tenantId', 'status', 'createdAt'),
      indexes: { byTenant: { keys: ['tenantId'], order: [['createdAt', 'desc']] }, byTenantStatus: { keys: ['tenantId', 'status'], order: [['createdAt', 'desc']] } },
    },
    records: [1, 2, 3].map((n) => ({ id: `c${n}`, tenantId: 't', status: n === 2 ? 'READY' : 'DRAFT', createdAt: at(n) })),
    queries: [
      { query: { where: { tenantId: 't' }, limit: 200, offset: 0 }, expect: ['c3', 'c2', 'c1'] },
      { query: { where: { tenantId: 't', status: 'DRAFT' }, limit: 1, offset: 1 }, expect: ['c1'] },
    ],
  },
];

describe('the list endpoints of the spec on the store seam', () => {
  for (const e of ENDPOINTS) {
    it(`serves ${e.endpoint} from declared indexes, each query one SQL statement`, async () => {
      const store = await openStore();
      const collection = store.collection<Rec, string>('records', e.schema);
      for (const record of e.records) await collection.put(record);
      for (const { query, expect: ids } of e.queries) {
        expect((await collection.query(query)).items.map((r) => r.id)).toEqual(ids);
        const sql = querySql('records', planQuery('records', e.schema, query.where, query.orderBy), query);
        expect(sql.text).toMatch(/^SELECT /);
        expect(sql.text).not.toContain(';');
      }
      if (e.groups) {
        expect(await collection.countGroups(e.groups.where, e.groups.field)).toEqual(e.groups.expect);
        expect(countGroupsSql('records', planQuery('records', e.schema, e.groups.where), e.groups.field).text).toContain('GROUP BY');
      }
      expect(indexStatements('records', e.schema as CollectionSchema<never, string>).length).toBe(Object.keys(e.schema.indexes).length);
    });
  }

  it('renders a cursor page as a keyset condition in the walking direction', () => {
    const schema: CollectionSchema<Rec, string> = { fields: fields('tenantId', 'createdAt'), indexes: { byTenant: { keys: ['tenantId'], order: [['createdAt', 'desc']] } } };
    const plan = planQuery('jobs', schema, { tenantId: 't' });
    const after = Buffer.from(JSON.stringify(['2026-11-01T00:00:00.000Z', 'j9'])).toString('base64url');
    const sql = querySql('jobs', plan, { where: { tenantId: 't' }, limit: 10, after });
    // The total is a one-row subquery the page joins laterally (an empty page still has it); the page reads
    // one row past the limit to know whether more follow. Field values are JSON text cast to jsonb.
    expect(sql.text).toBe(
      'SELECT "c"."sim_total", "p".* FROM (SELECT count(*)::int AS "sim_total" FROM "jobs" WHERE "tenant_id" = $1::text::jsonb) AS "c"' +
        ' LEFT JOIN LATERAL (SELECT "rev", "data", "created_at", "id" FROM "jobs" WHERE "tenant_id" = $1::text::jsonb' +
        ' AND (("created_at" < $2::text::jsonb) OR ("created_at" = $2::text::jsonb AND "id" > $3)) ORDER BY "created_at" DESC, "id" ASC LIMIT $4) AS "p" ON TRUE' +
        ' ORDER BY "p"."created_at" DESC, "p"."id" ASC',
    );
    expect(sql.values).toEqual(['"t"', '"2026-11-01T00:00:00.000Z"', 'j9', 11]);
  });
});
