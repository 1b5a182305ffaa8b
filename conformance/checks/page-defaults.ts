// Page defaults (spec 8.6): "jobs `limit` 1..100 (default 50); SIMA results ... (default 50); ... findings
// ... (default 50); claim submissions ... (default 50); ... all `offset` >= 0 default 0". A list read without
// `limit` and `offset` is the list read with `limit=50&offset=0`: the same items in the same order, never more
// than 50. Where the spec names the echo (the results list's `limit` and optional `offset`, spec 2.4; the
// submissions envelope's `limit` and `offset`, spec 2.7), it says 50 and 0. Read-only on the run's tenant:
// every profile. A tenant holding 50 items or fewer reads alike under any default of 50 or more, so in the
// simulator profile the jobs and findings lists are read again in a tenant made to hold more than 50 of each.
import { isObject } from '../../contracts/lib/bundle.js';
import { pageItems } from '../harness/locate.js';
import { defineCheck, type Check, type CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import type { Exchange } from '../harness/types.js';
import { batchBody, enqueue, receiptJobId, settleJobs, SKU_POOL } from './jobs-support.js';
import { isProblem, tenantWithFindings } from './ship/support.js';

/** spec 8.6: the default page size of every list below. */
const DEFAULT_LIMIT = 50;

interface PagedList {
  operationId: string;
  path: string;
  /** The items' key as the spec names it (or ours, where the page's fields are not shown: locate.ts finds them). */
  itemsKey: string;
  /** The spec names `limit` / `offset` in the list body (2.4 results list, 2.7 list envelope). */
  echoes: { limit: boolean; offset: 'required' | 'optional' | 'none' };
}

const LISTS: PagedList[] = [
  { operationId: 'listJobs', path: '/api/jobs', itemsKey: 'jobs', echoes: { limit: false, offset: 'none' } }, // spec 2.2: { jobs, count }
  { operationId: 'listSimaResults', path: '/api/sima/results', itemsKey: 'outcomes', echoes: { limit: true, offset: 'optional' } }, // spec 2.4
  { operationId: 'listFindings', path: '/api/ship/findings', itemsKey: 'findings', echoes: { limit: false, offset: 'none' } }, // spec 4.5: field list not shown
  { operationId: 'listClaimSubmissions', path: '/api/ship/claims/submissions', itemsKey: 'submissions', echoes: { limit: true, offset: 'required' } }, // spec 2.7
];

/** An item's identity: its `id` when it has one, else the whole item. */
const identity = (item: Record<string, unknown>): string => (typeof item.id === 'string' ? item.id : JSON.stringify(item));

async function read(ctx: CheckContext, list: PagedList, query: string, client: ConformanceClient): Promise<{ exchange: Exchange; ids: string[] } | undefined> {
  const exchange = await client.call('GET', `${list.path}${query}`);
  const items = exchange.response.status === 200 ? pageItems(exchange.response.body, list.itemsKey) : undefined;
  if (!items) {
    ctx.fail('page-served', `GET ${list.path}${query} answered ${exchange.response.status} without a list of items`, exchange);
    return undefined;
  }
  return { exchange, ids: items.map(identity) };
}

/** The default read equals the explicit first page; a changed list (a shared tenant) is read once more. */
async function sameAsFirstPage(ctx: CheckContext, list: PagedList, client: ConformanceClient = ctx.client): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const plain = await read(ctx, list, '', client);
    const explicit = await read(ctx, list, `?limit=${DEFAULT_LIMIT}&offset=0`, client);
    if (!plain || !explicit) return false;
    ctx.expect(plain.ids.length <= DEFAULT_LIMIT, 'page-default-limit', `GET ${list.path} without limit returned ${plain.ids.length} items, more than the default ${DEFAULT_LIMIT} (spec 8.6)`, plain.exchange);
    const same = plain.ids.length === explicit.ids.length && plain.ids.every((id, i) => id === explicit.ids[i]);
    if (same) {
      echoed(ctx, list, plain.exchange);
      // An empty list still says something where the spec names the echo of limit and offset.
      return plain.ids.length > 0 || list.echoes.limit;
    }
    if (attempt === 2) {
      ctx.fail('page-default-limit', `GET ${list.path} without limit and offset returned ${plain.ids.length} items, GET ${list.path}?limit=${DEFAULT_LIMIT}&offset=0 ${explicit.ids.length} (or another order): spec 8.6 makes them the same page`, plain.exchange);
      return false;
    }
  }
}

/** The echo the spec names: `limit` 50, `offset` 0 (absent only where the spec makes it optional). */
function echoed(ctx: CheckContext, list: PagedList, exchange: Exchange): void {
  const body = exchange.response.body;
  if (!isObject(body)) return;
  if (list.echoes.limit) ctx.expect(body.limit === DEFAULT_LIMIT, 'page-default-limit', `GET ${list.path} without limit echoes limit ${JSON.stringify(body.limit)}, not the default ${DEFAULT_LIMIT} (spec 8.6)`, exchange);
  if (list.echoes.offset === 'required' || (list.echoes.offset === 'optional' && body.offset !== undefined)) {
    ctx.expect(body.offset === 0, 'page-default-offset', `GET ${list.path} without offset echoes offset ${JSON.stringify(body.offset)}, not the default 0 (spec 8.6)`, exchange);
  }
}

/** More items than a default page holds. */
const BEYOND_DEFAULT = DEFAULT_LIMIT + 1;

/**
 * Simulator profile: a fresh tenant holding more than 50 findings (one invoice of overbilled packages) and more
 * than 50 jobs (SIMA batches), the lists whose items the check can make; undefined (a failure said) when the
 * tenant could not be filled.
 */
async function tenantBeyondDefault(ctx: CheckContext): Promise<ConformanceClient | undefined> {
  const found = await tenantWithFindings(ctx, 'Conformance page defaults beyond 50', BEYOND_DEFAULT + 9, BEYOND_DEFAULT);
  if (isProblem(found)) {
    ctx.fail(found.rule, found.message, found.exchange);
    return undefined;
  }
  const { client, tenantId } = found.tenant;
  if (tenantId) await ctx.admin!.updateSettings(tenantId, { queueCaps: { total: 100_000, upload: 100_000, sima: 100_000 } });
  const created: string[] = [];
  for (let i = 0; i < BEYOND_DEFAULT; i++) {
    const exchange = await enqueue(client, batchBody([SKU_POOL[i % SKU_POOL.length]]));
    const id = receiptJobId(exchange);
    if (!id) {
      ctx.fail('enqueue-accepted', `POST /api/sima/batch answered ${exchange.response.status}, not 202, while filling a tenant beyond one default page (spec 4.2)`, exchange);
      return undefined;
    }
    created.push(id);
  }
  // The list is read once its jobs stopped moving: no job changes place between the two reads.
  await settleJobs(client, created, { admin: ctx.admin });
  return client;
}

const pageDefaults = defineCheck({
  id: 'pagination.defaults',
  title: 'A list read without limit and offset is its first page of 50 (spec 8.6)',
  area: 'pagination',
  needs: [],
  async run(ctx) {
    let informative = 0;
    for (const list of LISTS.filter((l) => ctx.contract.operation(l.operationId))) {
      if (await sameAsFirstPage(ctx, list)) informative++;
    }
    if (ctx.admin) {
      const client = await tenantBeyondDefault(ctx);
      if (client) {
        for (const list of LISTS.filter((l) => ['listJobs', 'listFindings'].includes(l.operationId) && ctx.contract.operation(l.operationId))) {
          await sameAsFirstPage(ctx, list, client);
        }
        return;
      }
    }
    if (informative === 0) ctx.skip('every list of the tenant is empty and none echoes its limit: no page to compare');
  },
});

export const pageDefaultChecks: Check[] = [pageDefaults];
