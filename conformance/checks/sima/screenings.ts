// What sima.listed-skus-screened and sima.authority-defaults-to-ca share: a screening (POST /api/sima/batch,
// spec 4.2) run to its end, and which results of the list it made. A result is the screening's when it is new
// since the list read before it (another id or another analysisDate) and its analysisDate is not before the
// job was created (a second of slack: the two stamps may come from different clocks' rounding).
import type { CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { enqueue, receiptJobId, settleJobs } from '../jobs-support.js';
import { allResults, isProblem, type ResultsList, type SimaItem } from './support.js';

const instant = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined);

export interface Screening {
  jobId: string;
  /** The results list after the job ended, by SKU. */
  after: Map<string, SimaItem>;
  /** The SKUs whose result this screening made. */
  made: Set<string>;
  list: ResultsList;
}

/** The results of a list by SKU. */
export const bySku = (items: SimaItem[]) => new Map(items.filter((item) => typeof item.sku === 'string').map((item) => [item.sku as string, item]));

/**
 * Enqueues `body`, waits for the job to end COMPLETED and reads the results again; `before` is the list read
 * before. Fails or skips the check (undefined) when the screening cannot be judged.
 */
export async function screen(ctx: CheckContext, client: ConformanceClient, body: Record<string, unknown>, before: Map<string, SimaItem>): Promise<Screening | undefined> {
  const enqueued = await enqueue(client, body);
  const jobId = receiptJobId(enqueued);
  if (!ctx.expect(jobId !== undefined, 'enqueue-accepted', `POST /api/sima/batch ${JSON.stringify(body).slice(0, 200)} answered ${enqueued.response.status}, not 202 with a jobId (spec 2.3, 4.2)`, enqueued)) return undefined;
  let last: Exchange | undefined;
  const settled = await settleJobs(client, [jobId!], { admin: ctx.admin, realMs: ctx.admin ? 10_000 : 90_000, onRead: (_id, exchange) => (last = exchange) });
  const job = (last?.response.body ?? {}) as { status?: unknown; createdAt?: unknown };
  if (!settled.settled) {
    if (ctx.admin) return void ctx.fail('job-reaches-terminal', `the screening ${jobId} is still ${String(job.status)} after ${settled.advancedSeconds} s of virtual time (spec 3.1)`, last);
    ctx.skip(`the screening ${jobId} did not end while the check waited (still ${String(job.status)})`);
  }
  if (job.status !== 'COMPLETED') ctx.skip(`the screening ${jobId} ended ${String(job.status)}: no results to compare`);
  const created = instant(job.createdAt);
  if (!ctx.expect(created !== undefined, 'job-created-at', `job ${jobId} has createdAt ${JSON.stringify(job.createdAt)}, not a date-time (spec 2.2)`, last)) return undefined;
  const list = await allResults(client, {}, ctx.admin);
  if (isProblem(list)) return void ctx.fail(list.rule, list.message, list.exchange);
  if (!list.complete) ctx.skip(`the tenant has ${list.total} results, more than the check reads`);
  const after = bySku(list.items);
  const made = new Set<string>();
  for (const [sku, item] of after) {
    const earlier = before.get(sku);
    const renewed = !earlier || earlier.id !== item.id || earlier.analysisDate !== item.analysisDate;
    const analysed = instant(item.analysisDate);
    if (renewed && analysed !== undefined && analysed >= created! - 1_000) made.add(sku);
  }
  return { jobId: jobId!, after, made, list };
}
