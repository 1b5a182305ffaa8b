// Page defaults (spec 8.6): "jobs `limit` 1..100 (default 50); SIMA results ... (default 50); ... findings
// ... (default 50); claim submissions ... (default 50); ... all `offset` >= 0 default 0". A list read without
// `limit` and `offset` is the list read with `limit=50&offset=0`: the same items in the same order, never more
// than 50. Where the spec names the echo (the results list's `limit` and optional `offset`, spec 2.4; the
// submissions envelope's `limit` and `offset`, spec 2.7), it says 50 and 0. Read-only: every profile.
import { isObject } from '../../contracts/lib/bundle.js';
import { pageItems } from '../harness/locate.js';
import { defineCheck, type Check, type CheckContext } from '../harness/check.js';
import type { Exchange } from '../harness/types.js';

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

async function read(ctx: CheckContext, list: PagedList, query: string): Promise<{ exchange: Exchange; ids: string[] } | undefined> {
  const exchange = await ctx.client.call('GET', `${list.path}${query}`);
  const items = exchange.response.status === 200 ? pageItems(exchange.response.body, list.itemsKey) : undefined;
  if (!items) {
    ctx.fail('page-served', `GET ${list.path}${query} answered ${exchange.response.status} without a list of items`, exchange);
    return undefined;
  }
  return { exchange, ids: items.map(identity) };
}

/** The default read equals the explicit first page; a changed list (a shared tenant) is read once more. */
async function sameAsFirstPage(ctx: CheckContext, list: PagedList): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const plain = await read(ctx, list, '');
    const explicit = await read(ctx, list, `?limit=${DEFAULT_LIMIT}&offset=0`);
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
    if (informative === 0) ctx.skip('every list of the tenant is empty and none echoes its limit: no page to compare');
  },
});

export const pageDefaultChecks: Check[] = [pageDefaults];
