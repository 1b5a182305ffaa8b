// Resumed jobs tell the truth for every job type, on every store (issue 30 item 3). Each job type in turn is
// killed with a real SIGKILL inside its processor's run (SIM_CRASH_AT, domains/jobs/crash-point.ts: at a
// progress report, its domain writes so far flushed, or right after its domain work ended, before its
// verdict is saved), and the process restarted on the same store. After the restart the job is COMPLETED with
// exactly the result, counts, skipped rows, outcomes and warnings of an unkilled twin run of the same inputs
// in another process (record ids aside: they are minted per run), the domain totals (findings, classification
// reviews, SIMA results) equal the twin's (no record written twice), and no `job.failed` webhook went out
// (spec 3.1, 3.2, 6: FAILED and job.failed mean the work failed). The on-disk store (the default), the
// journal store, then PostgreSQL.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateShipmentFile } from '#fixtures/freight/generate-shipments.js';
import { startReceiver, type Receiver } from './domains/webhooks/webhook.testing.js';
import { bannerField, callProcess, startSimulatorProcess, type SimulatorProcess } from './testing/process.js';
import { writeLargeCatalogCsv, writeLargeFeedCsv } from './testing/large-catalog.js';
import { postgresSkipReason, startPostgres, type PostgresServer } from './testing/postgres-server.js';

const ADMIN = 'resume-every-admin';
const KEY = 'tfk_resume_every_type_key';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const call = (url: string, init: Parameters<typeof callProcess>[1] = {}) => callProcess(url, { timeoutMs: 30_000, ...init });

const cleanup: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const undo of cleanup.reverse()) await undo();
});

/** The input files, written once into a temp directory: big enough that each processor reports progress
 *  before its end (500-row batches), small enough for PostgreSQL's statement per row in npm test. */
interface Inputs {
  agreement: Buffer;
  orders: Buffer;
  shipments: Buffer;
  catalog: Buffer;
  screening: Buffer;
  feed: Buffer;
}

async function writeInputs(dir: string): Promise<Inputs> {
  const file = (name: string) => path.join(dir, name);
  const orderLines = ['orderId,sku,quantity,originCountry,destinationCountry,orderedAt,recipientAddressType'];
  for (let i = 0; i < 1_000; i++) orderLines.push(`RES-SO-${String(Math.floor(i / 2)).padStart(5, '0')},RES-SKU-${i},${1 + (i % 4)},CN,US,2026-11-0${1 + (i % 9)},${i % 3 ? 'RESIDENTIAL' : 'COMMERCIAL'}`);
  writeFileSync(file('orders.csv'), orderLines.join('\n') + '\n');
  await generateShipmentFile(1_500, file('shipments.csv'));
  await writeLargeCatalogCsv(file('catalog.csv'), Number.POSITIVE_INFINITY, 1_500);
  // The screening upload: SKUs of its own (sku column renamed rows of the catalog generator's form).
  await writeLargeCatalogCsv(file('screening.csv'), Number.POSITIVE_INFINITY, 500);
  writeFileSync(file('screening.csv'), readFileSync(file('screening.csv'), 'utf8').replace(/^LRG-/gm, 'SCR-'));
  await writeLargeFeedCsv(file('feed.csv'), 1_500);
  return {
    agreement: readFileSync(path.resolve('fixtures/freight/agreement-fedex.csv')),
    orders: readFileSync(file('orders.csv')),
    shipments: readFileSync(file('shipments.csv')),
    catalog: readFileSync(file('catalog.csv')),
    screening: readFileSync(file('screening.csv')),
    feed: readFileSync(file('feed.csv')),
  };
}

/** A started simulator process and a bearer of its default tenant. */
interface Api {
  sim: SimulatorProcess;
  bearer: string;
}

async function connect(env: Record<string, string>): Promise<Api> {
  const sim = await startSimulatorProcess(env);
  cleanup.push(() => sim.kill('SIGKILL'));
  const token = await call(`${sim.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY } });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return { sim, bearer: token.body.access_token };
}

const upload = async (api: Api, route: string, content: Buffer, name: string, fields: Record<string, string>) => {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(content)], { type: 'text/csv' }), name);
  for (const [field, value] of Object.entries(fields)) form.set(field, value);
  return call(`${api.sim.url}${route}`, { method: 'POST', token: api.bearer, body: form });
};
const postJson = (api: Api, route: string, json: unknown) => call(`${api.sim.url}${route}`, { method: 'POST', token: api.bearer, json });

/** One job type's case: how its job is sent, and where SIM_CRASH_AT kills the process during its run. */
interface ResumeCase {
  name: string;
  crashAt: string;
  /** Sends the job; answers the 202's body. `state` carries what a later case needs (the feed session). */
  submit(api: Api, inputs: Inputs, state: Map<string, string>, webhookUrl: string): Promise<{ status: number; body: any }>;
}

// Ordered so that two cases of one kind are never next to each other: a case's process also finishes the
// job of the case before it, which must not reach this case's crash point.
const CASES: ResumeCase[] = [
  { name: 'carrier agreement upload', crashAt: 'carrier_agreement_upload@settled', submit: (api, inputs, _, webhookUrl) => upload(api, '/api/carrier/agreements/upload', inputs.agreement, 'agreement.csv', { webhookUrl }) },
  { name: 'order upload', crashAt: 'order_upload@progress:30', submit: (api, inputs, _, webhookUrl) => upload(api, '/api/orders/upload', inputs.orders, 'orders.csv', { ingestMode: 'PATCH', webhookUrl }) },
  { name: 'ship upload', crashAt: 'ship_upload@progress:30', submit: (api, inputs, _, webhookUrl) => upload(api, '/api/ship/upload', inputs.shipments, 'shipments.csv', { adapter_id: 'fedex-fbo-csv', webhookUrl }) },
  { name: 'SIMA upload and screening', crashAt: 'sima_validation@progress:60', submit: (api, inputs, _, webhookUrl) => upload(api, '/api/upload', inputs.screening, 'screening.csv', { webhookUrl }) },
  { name: 'SIMA catalog upload', crashAt: 'catalog_upload@progress:30', submit: (api, inputs, _, webhookUrl) => upload(api, '/api/catalog/upload', inputs.catalog, 'catalog.csv', { webhookUrl }) },
  {
    name: 'trade feed normalization',
    crashAt: 'catalog_upload/trade_feed_normalize@progress:30',
    async submit(api, inputs, state, webhookUrl) {
      const accepted = await upload(api, '/api/trade/feeds/upload', inputs.feed, 'feed.csv', { originCountry: 'CN', defaultDestinationCountry: 'CA', webhookUrl });
      state.set('sessionId', accepted.body.sessionId);
      return accepted;
    },
  },
  { name: 'SIMA batch', crashAt: 'sima_validation@progress:50', submit: (api, _, __, webhookUrl) => postJson(api, '/api/sima/batch', { skus: null, webhookUrl }) },
  // 300 SKUs to classify, one page: its one progress report comes after every proposal is stored and before
  // the session takes the preview as its artifact.
  { name: 'classify preview', crashAt: 'catalog_upload/trade_feed_preview@progress:50', submit: (api, _, state, webhookUrl) => postJson(api, `/api/trade/feeds/${state.get('sessionId')}/classify-preview`, { webhookUrl }) },
  {
    name: 'classification batch',
    crashAt: 'catalog_upload/classification_batch@progress:50',
    submit: (api, _, __, webhookUrl) =>
      postJson(api, '/api/trade/classify/batch', {
        items: Array.from({ length: 100 }, (_, i) => (i % 2 ? { sku: `CB-${i}`, description: `Upholstered lounge chair ${i}, wood frame` } : { sku: `CB-${i}`, description: `Decorative item ${i}` })),
        webhookUrl,
      }),
  },
];

/** A job as a run of it should come out whatever the run: record ids and times aside (minted per run). */
function jobOutcome(job: any) {
  const withoutIds = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(withoutIds);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([key]) => !/(^id|Id)$/.test(key)).map(([key, v]) => [key, withoutIds(v)]));
    return value;
  };
  return { status: job.status, progress: job.progress, error: job.error, result: withoutIds(job.result), reconciliation: job.reconciliation, skippedRows: job.skippedRows, outcomes: job.outcomes, warnings: job.warnings };
}

/** Polls the job until it ends (COMPLETED or FAILED), within `ms`. */
async function ended(api: Api, jobId: string, ms = 120_000): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const job = (await call(`${api.sim.url}/api/jobs/${jobId}`, { token: api.bearer })).body;
    if (job?.status === 'COMPLETED' || job?.status === 'FAILED') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job?.status} after ${ms} ms`);
    await sleep(100);
  }
}

/** Records that a run writing something twice would show: the tenant's totals. */
async function domainTotals(api: Api) {
  const total = async (route: string) => (await call(`${api.sim.url}${route}`, { token: api.bearer })).body;
  const findings = await total('/api/ship/findings?limit=1');
  return {
    findings: findings.total,
    findingsByStatus: findings.statusCounts,
    classificationReviews: (await total('/api/trade/classify/reviews?limit=1')).total,
    simaResults: (await total('/api/sima/results?limit=1')).total,
  };
}

/** Lifts the queue caps of the default tenant (the cases run one at a time, but the twin shares no limits). */
async function liftCaps(api: Api, tenantId: string) {
  const lifted = await call(`${api.sim.url}/_sim/tenants/${tenantId}/settings`, { method: 'PUT', token: ADMIN, json: { queueCaps: { total: 1_000, sima: 1_000 } } });
  expect(lifted.status).toBe(200);
}

interface Run {
  outcomes: Map<string, ReturnType<typeof jobOutcome>>;
  totals: Awaited<ReturnType<typeof domainTotals>>;
  kills: Array<{ name: string; restartMs: number; totalMs: number }>;
}

/** Every case in order in one process, none killed: the twin a killed run must equal. */
async function unkilledRun(env: Record<string, string>, inputs: Inputs, webhookUrl: string): Promise<Run> {
  const api = await connect(env);
  await liftCaps(api, bannerField(api.sim.output(), 'tenant')!);
  const state = new Map<string, string>();
  const outcomes = new Map<string, ReturnType<typeof jobOutcome>>();
  for (const c of CASES) {
    const accepted = await c.submit(api, inputs, state, webhookUrl);
    expect(accepted.status, `${c.name}: ${JSON.stringify(accepted.body)}`).toBe(202);
    outcomes.set(c.name, jobOutcome(await ended(api, accepted.body.jobId)));
  }
  const totals = await domainTotals(api);
  await api.sim.kill('SIGTERM');
  return { outcomes, totals, kills: [] };
}

/** Waits until the process is gone; answers the signal that ended it. */
async function exitOf(sim: SimulatorProcess, ms = 120_000): Promise<NodeJS.Signals | null> {
  if (sim.child.exitCode !== null || sim.child.signalCode !== null) return sim.child.signalCode;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the process did not die at its crash point within ${ms} ms:\n${sim.output().slice(-2_000)}`)), ms);
    sim.child.once('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve(signal);
    });
  });
}

/**
 * Every case in order, each killed at its crash point: the process started with the case's SIM_CRASH_AT
 * gets the job, dies in its run, and the next process (the next case's crash point, or none) resumes it.
 */
async function killedRun(env: Record<string, string>, inputs: Inputs, webhookUrl: string): Promise<Run> {
  const state = new Map<string, string>();
  const outcomes = new Map<string, ReturnType<typeof jobOutcome>>();
  const kills: Run['kills'] = [];
  let api = await connect({ ...env, SIM_CRASH_AT: CASES[0].crashAt });
  const tenantId = bannerField(api.sim.output(), 'tenant')!;
  await liftCaps(api, tenantId);
  for (const [i, c] of CASES.entries()) {
    const started = Date.now();
    const accepted = await c.submit(api, inputs, state, webhookUrl);
    expect(accepted.status, `${c.name}: ${JSON.stringify(accepted.body)}`).toBe(202);
    expect(await exitOf(api.sim), `${c.name}: the process dies by SIGKILL at ${c.crashAt}`).toBe('SIGKILL');
    const restart = Date.now();
    const next = CASES[i + 1];
    api = await connect(next ? { ...env, SIM_CRASH_AT: next.crashAt } : env);
    const restartMs = Date.now() - restart;
    const job = await ended(api, accepted.body.jobId);
    outcomes.set(c.name, jobOutcome(job));
    kills.push({ name: c.name, restartMs, totalMs: Date.now() - started });
    if (process.env.RESUME_VERBOSE) process.stdout.write(`  ${c.name}: killed at ${c.crashAt}, restarted in ${restartMs} ms, ${job.status} ${Date.now() - started} ms after it was sent\n`);
  }
  const totals = await domainTotals(api);
  await api.sim.kill('SIGTERM');
  return { outcomes, totals, kills };
}

/** The twin, run once for every store's test (the same inputs, an on-disk store of its own). */
let twin: Promise<Run> | undefined;
let shared: Promise<{ inputs: Inputs; receiver: Receiver; dir: string }> | undefined;
const setup = () =>
  (shared ??= (async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-resume-every-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    return { inputs: await writeInputs(dir), receiver, dir };
  })());
const baseEnv = (receiver: Receiver) => ({ SIM_ADMIN_TOKEN: ADMIN, SIM_INTEGRATION_KEY: KEY, SIM_WEBHOOK_ALLOW_TARGETS: receiver.target, SIM_JOB_START_DELAY_MS: '50', SIM_JOB_PROCESSING_MS: '200' });
const twinRun = async () => {
  const { inputs, receiver, dir } = await setup();
  return (twin ??= unkilledRun({ ...baseEnv(receiver), SIM_DB: path.join(dir, 'twin', 'store.mdb') }, inputs, `${receiver.url}/twin`));
};

/** The killed run's jobs and totals equal the twin's, and none of its webhooks says job.failed. */
async function expectTruthfulResumes(store: string, env: (receiver: Receiver, dir: string) => Record<string, string>) {
  const { inputs, receiver, dir } = await setup();
  const expected = await twinRun();
  const hook = `/${store}`;
  const started = Date.now();
  const killed = await killedRun({ ...baseEnv(receiver), ...env(receiver, dir) }, inputs, `${receiver.url}${hook}`);
  for (const c of CASES) {
    expect(expected.outcomes.get(c.name)?.status, `${c.name} (twin)`).toBe('COMPLETED');
    // soft: a failure names every job type that came out differently, not only the first.
    expect.soft(killed.outcomes.get(c.name), c.name).toEqual(expected.outcomes.get(c.name));
  }
  expect.soft(killed.totals, 'domain totals').toEqual(expected.totals);
  // Every job's job.completed arrives (a delivery cut by a kill may arrive twice: at least once is the rule).
  const deliveries = async () => {
    const bodies = receiver.requests.filter((r) => r.url.startsWith(hook)).map((r) => JSON.parse(r.rawBody) as { event: string; job: { id: string } });
    return { events: bodies.map((b) => b.event), completed: new Set(bodies.filter((b) => b.event === 'job.completed').map((b) => b.job.id)).size };
  };
  for (let waited = 0; (await deliveries()).completed < CASES.length && waited < 15_000; waited += 250) await sleep(250);
  const { events, completed } = await deliveries();
  expect(events.filter((event) => event === 'job.failed')).toEqual([]);
  expect(completed).toBe(CASES.length);
  process.stdout.write(
    `resume every type (${store}): ${killed.kills.length} SIGKILLs, one inside each job type's run; ${CASES.length} jobs compared with their unkilled twins, ` +
      `totals ${JSON.stringify(killed.totals)}, ${events.length} webhooks, 0 job.failed; ${Date.now() - started} ms; ` +
      `restart ms ${killed.kills.map((k) => `${k.name} ${k.restartMs}`).join(', ')}\n`,
  );
}

describe('every job type resumed after a SIGKILL inside its run', () => {
  it('ends COMPLETED as its unkilled twin, with no record twice and no job.failed (on-disk store, the default)', { timeout: 400_000 }, async () => {
    await expectTruthfulResumes('on-disk', (_, dir) => ({ SIM_DB: path.join(dir, 'killed', 'store.mdb') }));
  });

  it('ends COMPLETED as its unkilled twin, with no record twice and no job.failed (journal store)', { timeout: 400_000 }, async () => {
    await expectTruthfulResumes('journal', (_, dir) => ({ SIM_STORE: `journal:${path.join(dir, 'killed-journal', 'store.json')}` }));
  });

  it.skipIf(postgresSkipReason() !== null)('ends COMPLETED as its unkilled twin, with no record twice and no job.failed (PostgreSQL store)', { timeout: 600_000 }, async () => {
    const postgres: PostgresServer = await startPostgres({ database: 'resume' });
    cleanup.push(() => postgres.stop());
    // The restarted process is the same instance (its name kept): it takes its own job leases back at once,
    // as a restarted instance of a cluster does, instead of waiting for them to expire.
    await expectTruthfulResumes('postgres', (_, dir) => {
      const artifacts = path.join(dir, 'pg-artifacts');
      mkdirSync(artifacts, { recursive: true });
      return { SIM_STORE: postgres.url, SIM_ARTIFACTS: artifacts, SIM_INSTANCE_ID: 'resume-1' };
    });
  });
});
