// What the trade feed checks share (spec 2.5, 3.2, 4.4): a tenant to upload feeds in, small feeds written
// for the run (unique SKUs), the upload, waiting for normalization (its job on the virtual clock with the
// control API, spec 8.7 polling otherwise), and the reads of a session, its SKUs and its issues.
import type { CheckContext } from '../../harness/check.js';
import { pageItems } from '../../harness/locate.js';
import { poll } from '../../harness/poller.js';
import { REAL_CLOCK } from '../../harness/transport.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { POLL_TERMINAL, isFeedStatus, type FeedSessionStatus } from '../../models/feed-session.model.js';
import { isRateLimited, RUN_NONCE, settleJobs } from '../jobs-support.js';

export const UPLOAD_PATH = '/api/trade/feeds/upload';
export const sessionPath = (id: string) => `/api/trade/feeds/${id}`;

export interface FeedRow {
  sku: string;
  productName: string;
  hsCode: string;
  originCountry?: string;
  destinationCountry?: string;
}

let feeds = 0;
/** A SKU unique to this run and feed. */
const feedSku = (tag: string, n: number) => `CONF-${RUN_NONCE}-${tag}-${n}`;

/**
 * Feeds of known shape: `direct` (every SKU with an HS code; no issue), `clean` (one SKU without an HS
 * code, for the classify preview), `nonBlocking` (a product name with stray spaces: worth an operator's
 * look, nothing to fix), `blocking` (a row without a SKU and one with a country code no country has).
 */
export function feedRows(kind: 'direct' | 'clean' | 'nonBlocking' | 'blocking'): FeedRow[] {
  const tag = `${kind.slice(0, 3).toUpperCase()}${++feeds}`;
  const tee = { productName: "Men's crew-neck T-shirt, knitted, cotton", hsCode: '6109.10.00', originCountry: 'CN', destinationCountry: 'CA' };
  const sofa = { productName: 'Two-seat sofa, wood frame, upholstered', hsCode: '9401.61.10', originCountry: 'CN', destinationCountry: 'CA' };
  switch (kind) {
    case 'direct':
      return [{ sku: feedSku(tag, 1), ...tee }, { sku: feedSku(tag, 2), ...sofa }];
    case 'clean':
      return [{ sku: feedSku(tag, 1), ...tee }, { sku: feedSku(tag, 2), ...sofa, hsCode: '' }];
    case 'nonBlocking':
      return [{ sku: feedSku(tag, 1), ...tee, productName: `  ${tee.productName}   grey ` }, { sku: feedSku(tag, 2), ...sofa }];
    case 'blocking':
      return [{ sku: feedSku(tag, 1), ...tee }, { sku: '', ...sofa }, { sku: feedSku(tag, 3), ...tee, originCountry: 'XX' }];
  }
}

const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
export function feedCsv(rows: FeedRow[]): string {
  const lines = ['sku,productName,hsCode,originCountry,destinationCountry', ...rows.map((r) => [r.sku, r.productName, r.hsCode, r.originCountry ?? '', r.destinationCountry ?? ''].map(cell).join(','))];
  return lines.join('\n') + '\n';
}

export function feedForm(csv: string, fields: Record<string, string> = { originCountry: 'CN', defaultDestinationCountry: 'CA' }, fileName = `conformance-feed-${RUN_NONCE}.csv`): FormData {
  const form = new FormData();
  form.append('file', new File([csv], fileName, { type: 'text/csv' }));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** A tenant for feeds: fresh with the control API (limits raised, sandbox-defined), else the primary one. */
export async function feedTenant({ client, admin }: Pick<CheckContext, 'client' | 'admin'>, name: string): Promise<{ client: ConformanceClient; fresh: boolean; tenantId?: string }> {
  if (!admin) return { client, fresh: false };
  const created = await admin.createTenant({ name });
  await admin.updateSettings(created.tenantId, {
    rateLimits: { read: { limit: 100_000, windowMs: 60_000 }, write: { limit: 100_000, windowMs: 60_000 }, upload: { limit: 100_000, windowMs: 60_000 } },
    queueCaps: { total: 100_000, upload: 100_000, sima: 100_000, preview: 100 },
  });
  return { client: client.withApiKey(created.integrationKey), fresh: true, tenantId: created.tenantId };
}

/** A request (429s are waited out by the client, harness/transport.ts). */
export function send(_ctx: Pick<CheckContext, 'admin'>, client: ConformanceClient, method: string, path: string, options: { form?: () => FormData; json?: unknown } = {}): Promise<Exchange> {
  return client.call(method, path, { ...(options.form ? { form: options.form() } : {}), ...(options.json !== undefined ? { json: options.json } : {}) });
}

export interface SettledFeed {
  sessionId: string;
  jobId: string;
  status: FeedSessionStatus | undefined;
  session: Record<string, unknown>;
  /** Every read of the session, oldest first (for the lifecycle rules). */
  reads: Exchange[];
}

/** Uploads a feed; fails the check (undefined) unless 202 with sessionId and jobId. */
export async function uploadFeed(ctx: CheckContext, client: ConformanceClient, rows: FeedRow[]): Promise<{ sessionId: string; jobId: string; exchange: Exchange } | undefined> {
  const csv = feedCsv(rows);
  const exchange = await send(ctx, client, 'POST', UPLOAD_PATH, { form: () => feedForm(csv) });
  const body = exchange.response.body as { sessionId?: unknown; jobId?: unknown } | null;
  if (exchange.response.status !== 202 || typeof body?.sessionId !== 'string' || typeof body.jobId !== 'string') {
    ctx.fail('feed-upload-accepted', `POST ${UPLOAD_PATH} answered ${exchange.response.status}, not 202 with sessionId and jobId (spec 4.4)`, exchange);
    return undefined;
  }
  return { sessionId: body.sessionId, jobId: body.jobId, exchange };
}

/** Reads the session until a terminal-for-polling state (spec 3.2), moving its normalization job along. */
export async function settleFeed(ctx: CheckContext, client: ConformanceClient, uploaded: { sessionId: string; jobId: string }): Promise<SettledFeed> {
  await settleJobs(client, [uploaded.jobId], { admin: ctx.admin, realMs: ctx.admin ? 10_000 : 60_000 });
  const reads: Exchange[] = [];
  let settled: SettledFeed | undefined;
  const admin = ctx.admin;
  // The harness's poller: spec 8.7's pace, or the virtual clock moved 5 s between reads (simulator profile).
  await poll({
    maxReads: admin ? 5 : 12,
    maxMs: admin ? 60_000 : 90_000,
    clock: admin ? REAL_CLOCK : client.transport.clock,
    async read() {
      const exchange = await client.call('GET', sessionPath(uploaded.sessionId));
      if (!isRateLimited(exchange)) reads.push(exchange);
      const body = (exchange.response.body ?? {}) as Record<string, unknown>;
      if (exchange.response.status === 200 && isFeedStatus(body.status) && POLL_TERMINAL.includes(body.status)) settled = { ...uploaded, status: body.status, session: body, reads };
      return settled !== undefined;
    },
    ...(admin ? { advance: async () => (await admin.advanceClock(5), true) } : {}),
  });
  if (settled) return settled;
  const last = reads.at(-1);
  const body = (last?.response.body ?? {}) as Record<string, unknown>;
  return { ...uploaded, status: isFeedStatus(body.status) ? body.status : undefined, session: body, reads };
}

/** Every item of a paged list (`skus` or `issues`), read `limit` at a time. */
export async function readPages(client: ConformanceClient, path: string, key: 'skus' | 'issues', limit = 500): Promise<{ items: Array<Record<string, unknown>>; pages: Exchange[]; total: number | undefined }> {
  const items: Array<Record<string, unknown>> = [];
  const pages: Exchange[] = [];
  let total: number | undefined;
  for (let offset = 0; offset < 5_000; offset += limit) {
    const exchange = await client.call('GET', `${path}?limit=${limit}&offset=${offset}`);
    pages.push(exchange);
    const body = exchange.response.body as Record<string, unknown> | null;
    // The page's keys are the sandbox's (spec 4.4 "SKU page", "issue page"): found by what they hold.
    const rows = pageItems(body, key);
    if (exchange.response.status !== 200 || !rows) break;
    total ??= typeof body?.total === 'number' ? body.total : undefined;
    items.push(...rows);
    if (rows.length < limit || body?.hasMore === false) break;
  }
  return { items, pages, total };
}

/** The direct-apply rows of spec 4.4: SKUs with providedHs, `providedHs` -> hsCode, `productName` -> name. */
export const directRows = (skus: Array<Record<string, unknown>>) =>
  skus.filter((s) => typeof s.providedHs === 'string' && s.providedHs).map((s) => ({ sku: String(s.sku), name: String(s.productName), hsCode: String(s.providedHs) }));

export const codeOf = (exchange: Exchange) => (exchange.response.body as { code?: unknown } | null)?.code;
