// Limits (spec 8.1, 8.2, 7): a full rate bucket or a queue-admission cap answers 429 RATE_LIMITED with
// `details` { bucket, limit, windowMs, retryAfterSeconds, keyId } and the contract's Retry-After header
// (RateLimited response), and the bucket serves again once its window has passed.
import { defineCheck, type CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import { formWith, uniqueFile } from './uploads/files.js';
import { runTag } from './uploads/send.js';
import { uploadOperations } from './uploads/targets.js';
import type { Exchange, Failure } from '../harness/types.js';
import { expectError } from '../harness/expect-error.js';
import { feedRows, sessionPath, settleFeed, uploadFeed } from './trade/support.js';

const READ_PATH = '/api/jobs?limit=1';
/** These checks provoke the limits on purpose: their requests are neither paced nor retried on 429 by the
 *  client (harness/transport.ts), which still learns from the 429s they get, so later checks wait them out. */
const PROVOKE = { limits: 'provoke' } as const;
/** The bucket names of spec 8.1; a queue-admission cap (8.2) names something else. */
const RATE_BUCKETS = ['read', 'write', 'upload'];

interface RateLimitDetails {
  bucket: string;
  limit: number;
  windowMs: number;
  retryAfterSeconds: number;
  keyId: string | null;
}

/** ` CODE` of an error envelope, for messages ('' when there is none). */
const codeOf = (exchange: Exchange) => {
  const code = (exchange.response.body as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? ` ${code}` : '';
};

const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

const DETAIL_TYPES: Record<keyof RateLimitDetails, [string, (value: unknown) => boolean]> = {
  bucket: ['a non-empty string', (v) => typeof v === 'string' && v.length > 0],
  limit: ['an integer >= 0', isCount],
  windowMs: ['an integer >= 0', isCount],
  retryAfterSeconds: ['an integer >= 0', isCount],
  keyId: ['a string (the integration key id) or null', (v) => typeof v === 'string' || v === null],
};

/**
 * Fails the check unless `exchange` is a well-formed 429 (spec 7): RATE_LIMITED in the envelope, every
 * `details` key present with its type, the values in `expected`, and a Retry-After header equal to
 * `details.retryAfterSeconds`. Returns the details when the envelope is there.
 */
function expectRateLimited(ctx: CheckContext, exchange: Exchange, what: string, expected: Partial<RateLimitDetails> = {}, extra?: Partial<Failure>): RateLimitDetails | undefined {
  const envelope = expectError(ctx, exchange, 429, 'RATE_LIMITED', what, extra);
  if (!envelope) return undefined;
  const details = (envelope.details ?? {}) as Record<string, unknown>;
  if (!envelope.details) ctx.fail('rate-limit-details', `${what}: the 429 has no details (spec 7: bucket, limit, windowMs, retryAfterSeconds, keyId)`, exchange, extra);
  else {
    for (const [key, [type, valid]] of Object.entries(DETAIL_TYPES)) {
      if (!(key in details)) ctx.fail('rate-limit-details', `${what}: details.${key} is missing (spec 7)`, exchange, extra);
      else if (!valid(details[key])) ctx.fail('rate-limit-details', `${what}: details.${key} is ${JSON.stringify(details[key])}, not ${type}`, exchange, extra);
    }
    for (const [key, value] of Object.entries(expected)) {
      if (key in details && details[key] !== value) ctx.fail('rate-limit-details', `${what}: details.${key} is ${JSON.stringify(details[key])}, not ${JSON.stringify(value)}`, exchange, extra);
    }
  }
  const header = exchange.response.headers['retry-after'];
  if (header === undefined) ctx.fail('retry-after-header', `${what}: the 429 has no Retry-After header (RateLimited response; spec 7 retry metadata)`, exchange, extra);
  else if (!/^\d+$/.test(header.trim())) ctx.fail('retry-after-header', `${what}: Retry-After "${header}" is not a number of seconds`, exchange, extra);
  else if (isCount(details.retryAfterSeconds) && Number(header) !== details.retryAfterSeconds) {
    ctx.fail('retry-after-header', `${what}: Retry-After ${header} differs from details.retryAfterSeconds ${String(details.retryAfterSeconds)}`, exchange, extra);
  }
  return details as unknown as RateLimitDetails;
}

/** Seconds a 429 asks to wait: the header, else details.retryAfterSeconds, else `fallback`. */
function retryAfterOf(exchange: Exchange, fallback: number): number {
  const header = Number(exchange.response.headers['retry-after']);
  if (Number.isInteger(header) && header >= 0) return header;
  const seconds = (exchange.response.body as { details?: { retryAfterSeconds?: unknown } })?.details?.retryAfterSeconds;
  return isCount(seconds) ? (seconds as number) : fallback;
}

const RATE_LIMIT = 3;
const WINDOW_MS = 60_000;

// Spec 8.1, 7: with the read bucket at 3 per 60000 ms, the 4th GET within the window is 429 with full
// details and Retry-After; after the window a GET is served again. Bucket sizes are set through the
// control API (simulator profile), on a fresh tenant so no other traffic shares the bucket.
const rateLimit = defineCheck({
  id: 'limits.rate-limit',
  title: 'A full read bucket answers 429 RATE_LIMITED with details and Retry-After, and serves again after the window',
  area: 'limits',
  needs: ['admin', 'writes'],
  async run(ctx) {
    const admin = ctx.admin!;
    const tenant = await admin.createTenant({ name: 'Conformance rate limit' });
    const client = ctx.client.withApiKey(tenant.integrationKey);
    await client.token();
    let burst: Exchange[] = [];
    let limitedAt = -1;
    // A fixed window may turn during the burst and refill the bucket; one more burst rules that out.
    for (let attempt = 0; attempt < 2; attempt++) {
      await admin.updateSettings(tenant.tenantId, { rateLimits: { read: { limit: RATE_LIMIT, windowMs: WINDOW_MS } } });
      burst = [];
      for (let i = 0; i < RATE_LIMIT + 3; i++) {
        const exchange = await client.call('GET', READ_PATH, PROVOKE);
        burst.push(exchange);
        if (exchange.response.status !== 200) break;
      }
      limitedAt = burst.findIndex((exchange) => exchange.response.status === 429);
      const allServedBefore = burst.slice(0, limitedAt === -1 ? burst.length : limitedAt).every((exchange) => exchange.response.status === 200);
      if (limitedAt === RATE_LIMIT || !allServedBefore || (limitedAt !== -1 && limitedAt < RATE_LIMIT)) break;
    }
    const last = burst[burst.length - 1];
    const unexpected = burst.find((exchange) => exchange.response.status !== 200 && exchange.response.status !== 429);
    if (unexpected) {
      ctx.fail('rate-limit-enforced', `GET ${READ_PATH} answered ${unexpected.response.status} within the read limit of ${RATE_LIMIT}`, unexpected);
      return;
    }
    if (limitedAt === -1) {
      ctx.fail('rate-limit-enforced', `${burst.length} GETs in one ${WINDOW_MS} ms window with the read limit at ${RATE_LIMIT} were all served; request ${RATE_LIMIT + 1} must be 429 RATE_LIMITED (spec 8.1)`, last);
      return;
    }
    if (limitedAt !== RATE_LIMIT) {
      ctx.fail('rate-limit-enforced', `the first 429 came at request ${limitedAt + 1}, not ${RATE_LIMIT + 1}, with the read limit at ${RATE_LIMIT} (spec 8.1)`, burst[limitedAt]);
    }
    const limited = burst[limitedAt];
    const details = expectRateLimited(ctx, limited, `GET request ${limitedAt + 1} over the read limit`, { bucket: 'read', limit: RATE_LIMIT, windowMs: WINDOW_MS, keyId: tenant.integrationKeyId });
    const wait = Math.max(WINDOW_MS / 1000, isCount(details?.retryAfterSeconds) ? details!.retryAfterSeconds : 0) + 1;
    await admin.advanceClock(wait);
    client.windowsMoved();
    const after = await client.call('GET', READ_PATH);
    ctx.expect(after.response.status === 200, 'rate-limit-window-resets', `GET ${READ_PATH} ${wait} s after the 429 answered ${after.response.status}, not 200`, after);
  },
});

/** A burst stops at its first 429. Windows may be fixed (spec 7 does not say): a burst crossing a window's end
 *  can send 240 + 240 reads (the default read limit) without one, so the most it sends is past twice that. */
const MAX_BURST = 500;
const BATCH = 10;

// Spec 7, 8.1: whatever the bucket sizes, every 429 is well formed. Sends up to `runs` (at most 500) quick
// GETs, neither paced nor retried by the client; none throttled passes. A throttled tenant is then given its
// window back in the simulator profile (the clock is advanced); elsewhere the client holds the bucket for as
// long as the 429s asked, so later checks wait instead of being throttled.
export const retryAfterOn429 = defineCheck({
  id: 'limits.retry-after-on-429',
  title: 'Every 429 observed carries Retry-After and the full RATE_LIMITED details',
  area: 'limits',
  needs: [],
  async run(ctx) {
    const total = Math.min(Math.max(ctx.runs, 1), MAX_BURST);
    await ctx.client.token();
    const limited: Exchange[] = [];
    for (let sent = 0; sent < total && limited.length === 0; ) {
      const size = Math.min(BATCH, total - sent);
      const batch = await Promise.all(Array.from({ length: size }, () => ctx.client.call('GET', READ_PATH, PROVOKE)));
      sent += size;
      limited.push(...batch.filter((exchange) => exchange.response.status === 429));
    }
    if (limited.length === 0) return;
    // Each 429 is examined until one is malformed (the same fault would repeat on the rest of the batch).
    for (const [index, exchange] of limited.entries()) {
      let malformed = false;
      const counting: CheckContext = { ...ctx, fail: (...failure) => ((malformed = true), ctx.fail(...failure)) };
      expectRateLimited(counting, exchange, `429 number ${index + 1} to GET ${READ_PATH}`);
      if (malformed) break;
    }
    // The client learned from these 429s and holds the bucket until they said (later checks wait there); in
    // the simulator profile the tenant's clock is moved past the window instead.
    if (ctx.admin) {
      await ctx.admin.advanceClock(Math.min(Math.max(...limited.map((exchange) => retryAfterOf(exchange, 60))), 65) + 1);
      ctx.client.windowsMoved();
    }
  },
});

// Spec 8.2, 7: "Tenant queue-admission caps on in-flight jobs (PENDING plus PROCESSING): total,
// upload-family, and SIMA. At a cap, enqueue returns 429 RATE_LIMITED with retry metadata." With one of the
// tenant's caps at 1 (control API; the values are not shown, so the suite sets them), a second enqueue of
// that kind while the first job is in flight (PENDING or PROCESSING) is refused.
interface CapCase {
  id: string;
  title: string;
  /** The control API's cap (sandbox-defined names) set to 1, and what it is called in messages. */
  cap: 'sima' | 'upload' | 'total';
  what: string;
  /** One enqueue of the kind the cap counts; `n` makes each request its own (no duplicate, no replay). */
  enqueue(ctx: CheckContext, client: ConformanceClient, n: number): Promise<Exchange>;
}

/** A SIMA batch of the whole catalog (spec 4.2), a SIMA-family enqueue. */
const simaBatch = (_ctx: CheckContext, client: ConformanceClient): Promise<Exchange> => client.call('POST', '/api/sima/batch', { json: { skus: null }, ...PROVOKE });

/** A catalog upload (spec 4.3, an upload-family enqueue) of a small file unique to this run and `n`. */
function catalogUpload(ctx: CheckContext, client: ConformanceClient, n: number): Promise<Exchange> {
  const target = uploadOperations(ctx.contract).find((t) => t.jobType === 'catalog_upload' && !t.unvalued.length);
  if (!target) ctx.skip(`contract ${ctx.contract.version} has no catalog upload to fill the upload-family cap with`);
  return client.call('POST', target.path, { form: formWith(target, uniqueFile(ctx.contract.doc, target, runTag(ctx, 'queue-cap', n))), ...PROVOKE });
}

const CAP_CASES: CapCase[] = [
  { id: 'limits.queue-cap', title: 'An enqueue at a queue-admission cap answers 429 RATE_LIMITED with details and Retry-After', cap: 'sima', what: 'SIMA batch', enqueue: simaBatch },
  { id: 'limits.queue-cap-upload', title: 'An upload at the upload-family queue cap answers 429 RATE_LIMITED with retry metadata', cap: 'upload', what: 'catalog upload', enqueue: catalogUpload },
  { id: 'limits.queue-cap-total', title: 'An enqueue at the total queue cap answers 429 RATE_LIMITED with retry metadata', cap: 'total', what: 'SIMA batch', enqueue: simaBatch },
];

/**
 * Sends two enqueues of one kind together while that kind's cap is 1 (up to 3 times, while a first job may
 * have ended before the second arrived) and judges the refusal: 429 RATE_LIMITED with full details, limit 1,
 * the key's id, and a bucket that is not a rate bucket. Skips when every first job ended too soon.
 */
async function provokeCap(ctx: CheckContext, client: ConformanceClient, keyId: string, what: string, cap: string, enqueue: (n: number) => Promise<Exchange>): Promise<void> {
  const jobIdOf = (exchange: Exchange) => (exchange.response.body as { jobId?: string })?.jobId;
  // Both enqueues go out together, so the second lands while the first job is in flight even on a slow
  // link or a loaded machine. A job may still finish before the other request lands; that attempt proves
  // nothing and is repeated.
  for (let attempt = 0; attempt < 3; attempt++) {
    const pair = await Promise.all([enqueue(attempt * 2), enqueue(attempt * 2 + 1)]);
    const accepted = pair.filter((exchange) => exchange.response.status === 202 && typeof jobIdOf(exchange) === 'string');
    if (!ctx.expect(accepted.length > 0, 'enqueue', `two ${what}s sent together answered ${pair.map((e) => e.response.status).join(' and ')}: neither 202 with a jobId`, pair[0])) return;
    const refused = pair.find((exchange) => !accepted.includes(exchange));
    if (refused) {
      const details = expectRateLimited(ctx, refused, `the second ${what} with the ${cap} at 1`, { limit: 1, keyId });
      if (details && typeof details.bucket === 'string' && RATE_BUCKETS.includes(details.bucket)) {
        ctx.fail('queue-cap-bucket', `details.bucket is "${details.bucket}", a rate bucket (spec 8.1), not a queue-admission cap (spec 8.2, 8.4)`, refused);
      }
      return;
    }
    const jobs = await Promise.all(pair.map((exchange) => client.call('GET', `/api/jobs/${jobIdOf(exchange)}`)));
    const [a, b] = jobs.map((job) => job.response.body as { status?: string; createdAt?: string; updatedAt?: string }).sort((x, y) => Date.parse(String(x.createdAt)) - Date.parse(String(y.createdAt)));
    const finishedBefore = (a.status === 'COMPLETED' || a.status === 'FAILED') && Date.parse(String(a.updatedAt)) <= Date.parse(String(b.createdAt));
    if (!finishedBefore) {
      ctx.fail('queue-cap-enforced', `two ${what}s were both accepted (202) with the ${cap} at 1, the second while the first job was in flight`, pair[1]);
      return;
    }
  }
  ctx.skip('every first job finished before the second enqueue arrived; the cap could not be observed');
}

const queueCapCheck = (cap: CapCase) =>
  defineCheck({
    id: cap.id,
    title: cap.title,
    area: 'limits',
    needs: ['admin', 'writes'],
    async run(ctx) {
      const admin = ctx.admin!;
      const tenant = await admin.createTenant({ name: `Conformance queue cap ${cap.cap}` });
      await admin.updateSettings(tenant.tenantId, { queueCaps: { [cap.cap]: 1 } });
      const client = ctx.client.withApiKey(tenant.integrationKey);
      await client.token();
      await provokeCap(ctx, client, tenant.integrationKeyId, cap.what, `${cap.cap} queue cap (spec 8.2)`, (n) => cap.enqueue(ctx, client, n));
    },
  });

// Spec 4.4 ("classify-preview [...] 429 when the per-tenant in-flight preview-job limit is reached") and 8.4
// ("Per-tenant in-flight classify-preview job limit (429 when reached). Value: not shown."): with the
// tenant's preview limit at 1 (control API, the sandbox's `queueCaps.preview`; the value is not shown, so
// the suite sets it), a second classify-preview while the first preview job is in flight is 429
// RATE_LIMITED with retry metadata (spec 7). Both previews are of one READY session (spec 3.2: READY is
// eligible for classify-preview; nothing in the spec refuses a second preview of a session), and the
// tenant's other caps and rate limits are lifted so that only the preview limit can refuse.
export const previewInflightLimit = defineCheck({
  id: 'limits.preview-inflight-limit',
  title: 'A classify-preview at the per-tenant in-flight preview limit answers 429 RATE_LIMITED with retry metadata',
  area: 'limits',
  needs: ['admin', 'writes'],
  async run(ctx) {
    if (!ctx.contract.operation('startTradeFeedClassifyPreview')) ctx.skip(`contract ${ctx.contract.version} has no classify-preview (spec 4.4)`);
    const admin = ctx.admin!;
    const tenant = await admin.createTenant({ name: 'Conformance preview limit' });
    const unlimited = { limit: 100_000, windowMs: 60_000 };
    await admin.updateSettings(tenant.tenantId, { rateLimits: { read: unlimited, write: unlimited, upload: unlimited }, queueCaps: { total: 100_000, upload: 100_000, sima: 100_000, preview: 1 } });
    const client = ctx.client.withApiKey(tenant.integrationKey);
    await client.token();
    const uploaded = await uploadFeed(ctx, client, feedRows('clean'));
    if (!uploaded) return;
    const settled = await settleFeed(ctx, client, uploaded);
    if (settled.status !== 'READY') ctx.skip(`a feed with one SKU to classify ended ${settled.status ?? 'unread'}, not READY: classify-preview is not available`);
    const path = `${sessionPath(uploaded.sessionId)}/classify-preview`;
    await provokeCap(ctx, client, tenant.integrationKeyId, 'classify-preview', 'in-flight preview-job limit (spec 4.4, 8.4)', () => client.call('POST', path, { json: {}, ...PROVOKE }));
  },
});

// Spec 8.1: "Rate buckets for integration-key traffic: `read` (GET/HEAD/OPTIONS tenant endpoints), `write`
// (non-upload mutations and enqueue writes), `upload` (upload paths)." Three buckets, so a full one refuses
// only its own kind. With write and upload at 2 per 60000 ms (control API; their limits are not shown, so
// the suite sets them) in a fresh tenant:
//   1. two SIMA batches (an enqueue write) are served, the third is 429 with details.bucket write; a GET and
//      a catalog upload are still served;
//   2. in the next window, two uploads fill the upload bucket (the one of step 1 was in the old window), the
//      third is 429 with details.bucket upload; a SIMA batch and a GET are still served.
// Each step starts at the beginning of a window of the tenant's clock (moved there), so none turns midway.
// Queue caps are lifted so that only the rate buckets can refuse.
const BUCKET_LIMIT = 2;
const writeUploadBuckets = defineCheck({
  id: 'limits.write-upload-buckets',
  title: 'The write and upload rate buckets are separate from read and from each other: a full one refuses only its own requests',
  area: 'limits',
  needs: ['admin', 'writes'],
  async run(ctx) {
    const admin = ctx.admin!;
    const tenant = await admin.createTenant({ name: 'Conformance write and upload buckets' });
    const client = ctx.client.withApiKey(tenant.integrationKey);
    // The token is exchanged before the limits are set: the exchange is a POST, which a server may count as a write.
    await client.token();
    await admin.updateSettings(tenant.tenantId, {
      rateLimits: { read: { limit: 100_000, windowMs: WINDOW_MS }, write: { limit: BUCKET_LIMIT, windowMs: WINDOW_MS }, upload: { limit: BUCKET_LIMIT, windowMs: WINDOW_MS } },
      queueCaps: { total: 100_000, upload: 100_000, sima: 100_000 },
    });
    let uploads = 0;
    const write = () => client.call('POST', '/api/sima/batch', { json: { skus: [`CONF-BUCKET-${tenant.tenantId.slice(0, 8)}`] }, ...PROVOKE });
    const upload = () => catalogUpload(ctx, client, uploads++);
    const read = () => client.call('GET', READ_PATH, PROVOKE);
    const served = (exchange: Exchange, what: string, why: string) =>
      ctx.expect(exchange.response.status >= 200 && exchange.response.status < 300, 'rate-bucket-separate', `${what} answered ${exchange.response.status}${codeOf(exchange)}, not 2xx, ${why} (spec 8.1: read, write and upload are separate buckets)`, exchange);
    const fill = async (kind: 'write' | 'upload', send: () => Promise<Exchange>, what: string): Promise<boolean> => {
      for (let i = 1; i <= BUCKET_LIMIT; i++) {
        if (!served(await send(), `${what} ${i} of ${BUCKET_LIMIT}`, `within the ${kind} limit of ${BUCKET_LIMIT}`)) return false;
      }
      const over = await send();
      if (over.response.status !== 429) {
        ctx.fail('rate-limit-enforced', `${what} ${BUCKET_LIMIT + 1} within one ${WINDOW_MS} ms window, with the ${kind} limit at ${BUCKET_LIMIT}, answered ${over.response.status}, not 429 RATE_LIMITED (spec 8.1)`, over);
        return false;
      }
      expectRateLimited(ctx, over, `${what} ${BUCKET_LIMIT + 1} over the ${kind} limit`, { bucket: kind, limit: BUCKET_LIMIT, windowMs: WINDOW_MS, keyId: tenant.integrationKeyId });
      return true;
    };

    // Each phase starts at the beginning of a window (the tenant's clock moved there), so that no window
    // turns during its few requests and refills a bucket.
    const windowStart = async () => {
      const { now } = await admin.clock(tenant.tenantId);
      await admin.advanceClock((WINDOW_MS - (Date.parse(now) % WINDOW_MS)) / 1000 + 0.5);
      client.windowsMoved();
    };

    await windowStart();
    if (!(await fill('write', write, 'SIMA batch'))) return;
    served(await read(), `GET ${READ_PATH}`, 'with the write bucket full');
    served(await upload(), 'a catalog upload', 'with the write bucket full');

    // A new window for every bucket: the write bucket empties, the upload bucket holds nothing of this window.
    await windowStart();
    if (!(await fill('upload', upload, 'catalog upload'))) return;
    served(await write(), 'a SIMA batch', 'with the upload bucket full');
    served(await read(), `GET ${READ_PATH}`, 'with the upload bucket full');
  },
});

export const limitChecks = [rateLimit, retryAfterOn429, writeUploadBuckets, ...CAP_CASES.map(queueCapCheck)];
