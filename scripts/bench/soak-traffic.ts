// The soak's traffic mix: each arrival picks a kind by weight (seeded) and sends one request of it, using
// what earlier requests left (jobs to poll, cursors, feed sessions and findings to move on). Enqueued
// jobs are polled until they end: every job of the soak should COMPLETE (spec 3.1), a FAILED one is an
// error; jobs enqueued with a webhook (spec 6) must be heard by the receiver.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SoakClient } from './soak-client.js';
import { ShipTraffic } from './soak-ship.js';
import { pickWeighted } from './soak-stats.js';
import { WEBHOOK_SECRET } from './soak-webhooks.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CATALOG_CSV = readFileSync(path.join(ROOT, 'fixtures', 'catalog', 'sample-catalog.csv'));
/** A feed whose SKUs all carry providedHs: normalized to an applyable PREVIEW_BLOCKED (spec 3.2, 4.4). */
const FEED_CSV = readFileSync(path.join(ROOT, 'fixtures', 'trade', 'feed-direct-apply.csv'));
/** The SKUs of the sample catalog: uploaded before the traffic starts, screened by the SIMA batches. */
const CATALOG_SKUS = CATALOG_CSV.toString('utf8').trim().split('\n').slice(1).map((line) => line.split(',')[0]);

/**
 * Requests per kind, relative. `integration` (the default): what a polling integration sends, reads far ahead
 * of writes; uploads and screening batches, which create hundreds of records each, are a small share.
 * `write-heavy`: a fifth of the traffic creates work; the store (all in memory, spec-faithful history kept)
 * then grows with the data, which is what the RSS of such a run mostly shows.
 */
export const MIXES = {
  integration: {
    'job-get': 30,
    'jobs-list': 6,
    'sima-read': 20,
    'sima-batch': 1,
    token: 4,
    'landed-cost': 10,
    'catalog-upload': 0.25,
    'feed-upload': 0.25,
    'feed-step': 2,
    'ship-upload': 0.25,
    'findings-list': 8,
    'finding-transition': 6,
    'claim-step': 4,
    invalid: 8,
  },
  'write-heavy': {
    'job-get': 20,
    'jobs-list': 5,
    'sima-read': 14,
    'sima-batch': 8,
    token: 4,
    'landed-cost': 10,
    'catalog-upload': 2,
    'feed-upload': 2,
    'feed-step': 5,
    'ship-upload': 2,
    'findings-list': 4,
    'finding-transition': 8,
    'claim-step': 6,
    invalid: 10,
  },
} as const;
export type MixName = keyof typeof MIXES;
export type Mix = (typeof MIXES)[MixName];

interface PendingJob {
  origin: string;
  webhook: boolean;
  sessionId?: string;
}
interface FeedSession {
  stage: 'detail' | 'skus' | 'apply';
  rows?: unknown[];
  busy: boolean;
}

export class Traffic {
  /** Jobs not yet seen in a terminal state, polled round-robin (a Map keeps insertion order). */
  readonly pending = new Map<string, PendingJob>();
  readonly jobsByStatus = new Map<string, number>();
  /** Jobs enqueued with a webhook that COMPLETED: each must reach the receiver. */
  readonly webhookJobs = new Set<string>();
  readonly feeds = new Map<string, FeedSession>();
  readonly ship: ShipTraffic;
  private readonly recentJobs: string[] = [];
  /** Every job seen ending: a replayed receipt names one of them again. */
  private readonly finished = new Set<string>();
  private readonly screenedSkus = new Set<string>();
  private resultsCursor: string | null = null;
  private lastBatch?: { key: string; body: { skus: string[]; webhookUrl?: string } };

  constructor(
    private readonly client: SoakClient,
    private readonly rng: () => number,
    private readonly apiKey: string,
    private readonly webhookUrl: string,
    private readonly mix: Mix = MIXES.integration,
  ) {
    this.ship = new ShipTraffic(client, rng);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rng() * xs.length)];
  }

  /** One arrival of the open-loop schedule. */
  next(): Promise<void> {
    const kind = pickWeighted(this.mix, this.rng());
    switch (kind) {
      case 'job-get': return this.pollJob();
      case 'jobs-list': return this.listJobs();
      case 'sima-read': return this.simaRead();
      case 'sima-batch': return this.simaBatch();
      case 'token': return this.exchangeToken();
      case 'landed-cost': return this.landedCost();
      case 'catalog-upload': return this.catalogUpload();
      case 'feed-upload': return this.feedUpload();
      case 'feed-step': return this.feedStep();
      case 'ship-upload': return this.shipUpload();
      case 'findings-list': return this.ship.list();
      case 'finding-transition': return this.ship.transition();
      case 'claim-step': return this.ship.claimStep();
      case 'invalid': return this.invalid();
    }
  }

  /** spec 4.1 / 5.1: a fresh bearer, used from now on. */
  async exchangeToken(): Promise<void> {
    const res = await this.client.send('token', 'POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': this.apiKey } }, { status: [200] });
    if (typeof res?.body?.access_token === 'string') this.client.token = res.body.access_token;
    else if (res) this.client.tally.error('token: no access_token', JSON.stringify(res.body).slice(0, 200));
  }

  private enqueued(jobId: unknown, job: PendingJob) {
    if (typeof jobId !== 'string') return this.client.tally.error(`${job.origin}: receipt without jobId`, '');
    if (!this.pending.has(jobId) && !this.finished.has(jobId)) this.pending.set(jobId, job);
  }

  /** GET /api/jobs/{id} of the next pending job (or a recent finished one). */
  async pollJob(): Promise<void> {
    const first = this.pending.keys().next();
    const id = first.done ? this.recentJobs[Math.floor(this.rng() * this.recentJobs.length)] : first.value;
    if (!id) return this.listJobs();
    const job = this.pending.get(id);
    if (job) this.pending.delete(id); // back at the end of the queue unless it ended (below)
    const res = await this.client.send('job-get', 'GET', `/api/jobs/${id}`, {}, { status: [200] });
    if (!job) return;
    const status = res?.body?.status;
    if (status !== 'COMPLETED' && status !== 'FAILED') {
      this.pending.set(id, job);
      return;
    }
    this.jobsByStatus.set(`${job.origin} ${status}`, (this.jobsByStatus.get(`${job.origin} ${status}`) ?? 0) + 1);
    this.finished.add(id);
    this.recentJobs.push(id);
    if (this.recentJobs.length > 200) this.recentJobs.shift();
    if (status === 'FAILED') return this.client.tally.error(`job FAILED (${job.origin})`, `${id}: ${String(res?.body?.error)}`);
    if (job.webhook) this.webhookJobs.add(id);
    if (job.sessionId) this.feeds.set(job.sessionId, { stage: 'detail', busy: false });
  }

  async listJobs(): Promise<void> {
    const type = this.pick(['', '&type=sima_validation', '&type=ship_upload', '&type=catalog_upload']);
    const status = this.pick(['', '&status=COMPLETED', '&status=PENDING']);
    const res = await this.client.send('jobs-list', 'GET', `/api/jobs?limit=20&offset=${Math.floor(this.rng() * 40)}${type}${status}`, {}, { status: [200] });
    if (res && !Array.isArray(res.body?.jobs)) this.client.tally.error('jobs-list: no jobs array', JSON.stringify(res.body).slice(0, 200));
  }

  /** spec 4.2: results pages followed by cursor, the summary, a screened SKU's evidence. */
  async simaRead(): Promise<void> {
    const r = this.rng();
    if (r < 0.2) {
      await this.client.send('sima-read', 'GET', '/api/sima/summary', {}, { status: [200] });
      return;
    }
    if (r < 0.35 && this.screenedSkus.size) {
      const sku = this.pick([...this.screenedSkus]);
      await this.client.send('sima-read', 'GET', `/api/sima/results/${encodeURIComponent(sku)}/evidence`, {}, { status: [200] });
      return;
    }
    const cursor = this.resultsCursor;
    const res = await this.client.send('sima-read', 'GET', `/api/sima/results?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {}, { status: [200] });
    if (!res) return (this.resultsCursor = null), undefined;
    if (!Array.isArray(res.body?.outcomes)) return this.client.tally.error('sima-read: no outcomes array', JSON.stringify(res.body).slice(0, 200));
    for (const o of res.body.outcomes as Array<{ sku: string }>) this.screenedSkus.add(o.sku);
    this.resultsCursor = res.body.hasMore ? res.body.cursor : null;
  }

  /** spec 4.2 / 8.5: a batch with an Idempotency-Key; a fifth replay the last one (same key and body: 202, replayed); a third ask for a webhook. */
  async simaBatch(): Promise<void> {
    const replay = this.lastBatch !== undefined && this.rng() < 0.2;
    const batch = replay ? this.lastBatch! : this.newBatch();
    const res = await this.client.send('sima-batch', 'POST', '/api/sima/batch', { json: batch.body, headers: { 'idempotency-key': batch.key } }, { status: [202] });
    if (!res) return;
    if (res.body?.replayed !== replay) this.client.tally.error('sima-batch: wrong replayed flag', `replay ${replay}: ${JSON.stringify(res.body)}`);
    this.lastBatch = batch;
    this.enqueued(res.body?.jobId, { origin: 'sima-batch', webhook: 'webhookUrl' in batch.body });
  }

  private newBatch() {
    const skus = CATALOG_SKUS.filter(() => this.rng() < 0.4).slice(0, 3);
    const webhook = this.rng() < 0.33 ? { webhookUrl: this.webhookUrl, webhookSecret: WEBHOOK_SECRET } : {};
    return { key: randomUUID(), body: { skus: skus.length ? skus : [CATALOG_SKUS[0]], ...webhook } };
  }

  /** spec 4.6: a quote on an integration bearer. */
  async landedCost(): Promise<void> {
    const body = {
      productValue: Math.round(50 + this.rng() * 5000),
      hsCode: this.pick(['6109.10', '9401.61.10', '6404.11', '4407.11']),
      originCountry: this.pick(['CN', 'IN', 'VN', 'CA']),
      destinationCountry: this.pick(['US', 'CA', 'GB', 'DE']),
      shippingCost: Math.round(this.rng() * 200),
      ...(this.rng() < 0.5 ? { currency: this.pick(['USD', 'EUR', 'CAD']) } : {}),
    };
    await this.client.send('landed-cost', 'POST', '/api/trade/landed-cost', { json: body }, { status: [200] });
  }

  /** spec 4.3: the sample catalog (the same SKUs each time, so the catalog does not grow). */
  async catalogUpload(): Promise<void> {
    const form = new FormData();
    form.append('file', new Blob([CATALOG_CSV], { type: 'text/csv' }), 'sample-catalog.csv');
    form.append('screeningAuthority', 'CA');
    const res = await this.client.send('catalog-upload', 'POST', '/api/catalog/upload', { form, headers: { 'idempotency-key': randomUUID() } }, { status: [202] });
    if (res) this.enqueued(res.body?.jobId, { origin: 'catalog-upload', webhook: false });
  }

  async feedUpload(): Promise<void> {
    const res = await this.client.send('feed-upload', 'POST', '/api/trade/feeds/upload', { form: feedForm() }, { status: [202] });
    if (res) this.enqueued(res.body?.jobId, { origin: 'feed-upload', webhook: false, sessionId: res.body?.sessionId });
  }

  /** spec 4.4, the direct-apply shortcut one request at a time: session detail, its SKUs, apply. */
  async feedStep(): Promise<void> {
    const entry = [...this.feeds.entries()].find(([, f]) => !f.busy);
    if (!entry) return this.feedUpload();
    const [id, f] = entry;
    f.busy = true;
    try {
      if (f.stage === 'detail') {
        const res = await this.client.send('feed-step', 'GET', `/api/trade/feeds/${id}`, {}, { status: [200] });
        if (!res) return;
        if (res.body?.applyable !== true) this.client.tally.error('feed-step: normalized feed not applyable', JSON.stringify(res.body).slice(0, 300));
        f.stage = 'skus';
      } else if (f.stage === 'skus') {
        const res = await this.client.send('feed-step', 'GET', `/api/trade/feeds/${id}/skus?limit=50`, {}, { status: [200] });
        if (!res) return;
        const skus = (res.body?.skus ?? []) as Array<{ sku: string; productName: string; providedHs: string | null }>;
        f.rows = skus.filter((s) => s.providedHs).map((s) => ({ sku: s.sku, name: s.productName, hsCode: s.providedHs }));
        f.stage = 'apply';
      } else {
        this.feeds.delete(id);
        const res = await this.client.send('feed-step', 'POST', `/api/trade/feeds/${id}/apply`, { json: { rows: f.rows, originCountry: 'CN', screeningAuthority: 'CA' } }, { status: [200] });
        if (!res) return;
        if (res.body?.status !== 'APPLIED') this.client.tally.error('feed-step: apply did not give APPLIED', JSON.stringify(res.body).slice(0, 300));
        // The applied rows are screened by a SIMA job (sandbox: screeningJobId on the session detail).
        if (typeof res.body?.screeningJobId === 'string') this.enqueued(res.body.screeningJobId, { origin: 'feed-apply', webhook: false });
      }
    } finally {
      f.busy = false;
    }
  }

  async shipUpload(): Promise<void> {
    const jobId = await this.ship.upload();
    if (jobId) this.enqueued(jobId, { origin: 'ship-upload', webhook: false });
  }

  /** A deliberately wrong request: each must get its 4xx in the spec 7 envelope with the right code. */
  async invalid(): Promise<void> {
    const c = this.client;
    const which = Math.floor(this.rng() * 10);
    if (which === 0 && (await this.ship.duplicateUpload())) return;
    if (which === 1 && (await this.ship.refusedTransition())) return;
    if (which === 2 && this.lastBatch) {
      // spec 8.5: the same key with another payload.
      await c.send('invalid', 'POST', '/api/sima/batch', { json: { skus: ['SOAK-OTHER-SKU'] }, headers: { 'idempotency-key': this.lastBatch.key } }, { status: [409], code: 'ACTION_NOT_ALLOWED' });
      return;
    }
    const cases: Array<() => Promise<unknown>> = [
      () => c.send('invalid', 'GET', '/api/jobs/not-a-uuid', {}, { status: [400], code: 'INVALID_REQUEST' }),
      () => c.send('invalid', 'GET', `/api/jobs/${randomUUID()}`, {}, { status: [404], code: 'NOT_FOUND' }),
      () => c.send('invalid', 'POST', '/api/sima/batch', { json: { skus: ['X'], screeningAuthority: 'XX' } }, { status: [400], code: 'INVALID_REQUEST' }),
      () => c.send('invalid', 'POST', '/api/auth/token/integration', { token: null }, { status: [400], code: 'MISSING_API_KEY' }),
      () => c.send('invalid', 'POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': 'tfk_not_a_key' } }, { status: [401], code: 'INVALID_API_KEY' }),
      () => c.send('invalid', 'GET', '/api/jobs', { token: 'not.a.jwt' }, { status: [401], code: 'INVALID_TOKEN' }),
      () => c.send('invalid', 'POST', '/api/trade/landed-cost', { json: { productValue: 100, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'US', quantity: 2, quantityUnit: 'KGM', provider: 'any' } }, { status: [400], code: 'INVALID_REQUEST' }),
      () => c.send('invalid', 'GET', '/api/sima/results?limit=5000', {}, { status: [400], code: 'INVALID_REQUEST' }),
      () => c.send('invalid', 'POST', '/api/ship/claims/submissions', { json: { carrier: 'FEDEX', findingIds: [] } }, { status: [400], code: 'INVALID_REQUEST' }),
      () => c.send('invalid', 'POST', '/api/catalog/upload', { form: binaryForm() }, { status: [415], code: 'INVALID_FILE_FORMAT' }),
    ];
    await this.pick(cases)();
  }
}

function feedForm(): FormData {
  const form = new FormData();
  form.append('file', new Blob([FEED_CSV], { type: 'text/csv' }), 'feed-direct-apply.csv');
  form.append('originCountry', 'CN');
  form.append('defaultDestinationCountry', 'CA');
  return form;
}

/** Bytes that are no table (a PNG signature) under an .exe name: spec 8.3, 415. */
function binaryForm(): FormData {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])], { type: 'application/octet-stream' }), 'soak.exe');
  return form;
}
