// Two simulator instances over one PostgreSQL database behind HAProxy (issue 17 item 4), as real processes
// (testing/cluster.ts): a tenant's clock moved through one instance is the same on the other and nobody
// else's; a rate bucket of 240 reads a minute holds across both; a claim submission's transition sent to both
// at the same moment wins once; and an instance SIGKILLed while it runs a job leaves nothing behind: the
// other takes the job over when its lease expires, finishes it and delivers its webhook, once, and every
// write acknowledged before the kill is there; one stopped with SIGTERM hands its running job over at once.
// Skips locally without PostgreSQL or HAProxy; fails under CI.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGREEMENT_HEADER, SHIPMENT_HEADER, sampleAgreementRows, sampleShipmentRows, toCsv } from '#fixtures/freight/sample-shipments.js';
import { startReceiver, type Receiver } from './domains/webhooks/webhook.testing.js';
import { clusterSkipReason, startCluster, type Cluster } from './testing/cluster.js';

const skipReason = clusterSkipReason();
/** Virtual time a job processes: long enough to kill its instance while it runs. */
const JOB_PROCESSING_MS = 4_000;

interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}
interface Tenant {
  id: string;
  key: string;
  token: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(base: string, method: string, path: string, init: { token?: string; json?: unknown; form?: FormData; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers, ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) };
  const res = await fetch(`${base}${path}`, { method, headers, body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)), signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
  return { status: res.status, body: json, text, headers: res.headers };
}

/** Waits (in real time) until `condition` holds, or fails naming `what` (worked out at the timeout). */
async function until(condition: () => Promise<boolean>, what: string | (() => string), timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(100);
  }
}

describe.skipIf(skipReason !== null)(`two instances over one database behind a load balancer${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let cluster: Cluster;
  let sql: postgres.Sql;
  let receiver: Receiver;
  let tenants = 0;

  beforeAll(async () => {
    [cluster, receiver] = await Promise.all([startCluster({ instances: 2, env: { SIM_JOB_START_DELAY_MS: '50', SIM_JOB_PROCESSING_MS: String(JOB_PROCESSING_MS) } }), startReceiver()]);
    sql = postgres(cluster.postgres.url, { max: 1, onnotice: () => {} });
    // Set through one instance: the other applies it before its next request (control/cluster-sync.ts).
    expect((await admin('PUT', '/_sim/webhooks/allow-targets', { targets: [receiver.target] })).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await receiver?.close();
    await cluster?.stop();
  });

  const admin = (method: string, path: string, json?: unknown, base = cluster.url) => call(base, method, path, { token: cluster.adminToken, json });
  const tokenFor = async (key: string, base = cluster.url) => {
    const res = await call(base, 'POST', '/api/auth/token/integration', { headers: { 'x-api-key': key } });
    expect(res.status, res.text).toBe(200);
    return res.body.access_token as string;
  };
  /** A tenant of its own per test; `lifted`: buckets and queue caps out of the way of a test's load. */
  async function newTenant(lifted: boolean): Promise<Tenant> {
    const created = await admin('POST', '/_sim/tenants', { name: `cluster test tenant ${++tenants}` });
    expect(created.status, created.text).toBe(201);
    const id = created.body.tenantId as string;
    if (lifted) {
      const big = { limit: 1_000_000, windowMs: 60_000 };
      const settings = await admin('PUT', `/_sim/tenants/${id}/settings`, { rateLimits: { read: big, write: big, upload: big }, queueCaps: { total: 1_000_000, sima: 1_000_000 } });
      expect(settings.status, settings.text).toBe(200);
    }
    return { id, key: created.body.integrationKey, token: await tokenFor(created.body.integrationKey) };
  }
  const clockOf = async (tenantId: string | null, base: string) => {
    const res = await admin('GET', `/_sim/clock${tenantId ? `?tenantId=${tenantId}` : ''}`, undefined, base);
    expect(res.status, res.text).toBe(200);
    return res.body as { now: string; offsetSeconds: number };
  };
  const transitions = async (resourceId: string) => (await admin('GET', `/_sim/transitions?resourceId=${resourceId}&limit=1000`)).body.items as Array<{ from: string | null; to: string; requestId: string | null }>;

  it("moves a tenant's clock on both instances when one of them is told, and nobody else's", async () => {
    const [one, two] = cluster.instances.map((i) => i.url) as [string, string];
    const [moved, other] = [await newTenant(true), await newTenant(true)];
    const before = { moved: await clockOf(moved.id, two), other: await clockOf(other.id, two), sandbox: await clockOf(null, two) };

    const advanced = await admin('POST', '/_sim/clock/advance', { seconds: 3600, tenantId: moved.id }, one);
    expect(advanced.status, advanced.text).toBe(200);
    expect(advanced.body.offsetSeconds).toBeCloseTo(before.moved.offsetSeconds + 3600, 3);

    for (const base of [one, two]) {
      expect((await clockOf(moved.id, base)).offsetSeconds, base).toBeCloseTo(before.moved.offsetSeconds + 3600, 3);
      expect((await clockOf(other.id, base)).offsetSeconds, base).toBeCloseTo(before.other.offsetSeconds, 3);
      expect((await clockOf(null, base)).offsetSeconds, base).toBeCloseTo(before.sandbox.offsetSeconds, 3);
    }
    // What the other instance records for the tenant is stamped with the tenant's time: a job created there.
    const enqueue = async (tenant: Tenant) => {
      const token = await tokenFor(tenant.key, two);
      const accepted = await call(two, 'POST', '/api/sima/batch', { token, json: { skus: null } });
      expect(accepted.status, accepted.text).toBe(202);
      return Date.parse((await call(two, 'GET', `/api/jobs/${accepted.body.jobId}`, { token })).body.createdAt);
    };
    const hourAhead = Date.now() + 3600_000;
    expect(Math.abs((await enqueue(moved)) - hourAhead)).toBeLessThan(60_000);
    expect(Math.abs((await enqueue(other)) - Date.now())).toBeLessThan(60_000);
  });

  it('holds a bucket of 240 reads a minute across both instances: the 241st is 429 whichever instance answers', async () => {
    const [one, two] = cluster.instances.map((i) => i.url) as [string, string];
    const tenant = await newTenant(false);
    // Start at the beginning of a fresh window on the tenant's clock, so it cannot roll over mid-test.
    const clock = await clockOf(tenant.id, one);
    const now = Date.parse(clock.now);
    const toNextWindow = (Math.floor(now / 60_000) + 1) * 60_000 - now;
    expect((await admin('POST', '/_sim/clock/advance', { seconds: toNextWindow / 1000 + 0.2, tenantId: tenant.id }, one)).status).toBe(200);

    const statuses: number[] = [];
    for (let batch = 0; batch < 24; batch++) {
      // Ten at a time, alternating instances: 120 reads answered by each.
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call(i % 2 === 0 ? one : two, 'GET', '/api/jobs?limit=1', { token: tenant.token })));
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    for (const base of [one, two, cluster.url]) {
      const refused = await call(base, 'GET', '/api/jobs?limit=1', { token: tenant.token });
      expect(refused.status, `${base}: ${refused.text}`).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it("applies a claim submission's transition once when both instances get it at the same moment", { timeout: 120_000 }, async () => {
    const instances = cluster.instances.map((i) => i.url) as [string, string];
    const tenant = await newTenant(true);
    const t = tenant.token;
    // The sample agreement and invoice (fixtures/freight) audited into findings, through the load balancer.
    const upload = async (path: string, csv: string, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), name);
      const accepted = await call(cluster.url, 'POST', path, { token: t, form });
      expect(accepted.status, accepted.text).toBe(202);
      let job: Answer | undefined;
      await until(async () => ['COMPLETED', 'FAILED'].includes((job = await call(cluster.url, 'GET', `/api/jobs/${accepted.body.jobId}`, { token: t })).body?.status), `the ${name} job`, 30_000);
      expect(job!.body.status, job!.text).toBe('COMPLETED');
    };
    await upload('/api/carrier/agreements/upload', toCsv(AGREEMENT_HEADER, sampleAgreementRows('FEDEX')), 'agreement.csv');
    await upload('/api/ship/upload', toCsv(SHIPMENT_HEADER, sampleShipmentRows(new Date(Date.parse((await clockOf(tenant.id, cluster.url)).now)), 'FEDEX').map((r) => r.cells)), 'invoice.csv');
    const findings = (await call(cluster.url, 'GET', '/api/ship/findings?limit=500', { token: t })).body.findings as Array<{ id: string; carrier: string; actionability: string }>;
    // An OPEN finding nothing else blocks: ELIGIBLE once disputed (spec 4.5 rule 1).
    const finding = findings.find((f) => f.carrier === 'FEDEX' && f.actionability === 'disputable');
    expect(finding, JSON.stringify(findings.map((f) => [f.carrier, f.actionability]))).toBeDefined();
    expect((await call(cluster.url, 'POST', `/api/ship/findings/${finding!.id}/dispute`, { token: t, json: {} })).status).toBe(200);

    const sub = (id: string) => `/api/ship/claims/submissions/${id}`;
    /** Four requests of one move at once, two to each instance, each with its own body: one 200, three 409. */
    async function race(path: string, bodyOf: (n: number) => unknown, token = t) {
      const answers = await Promise.all([0, 1, 2, 3].map((n) => call(instances[n % 2]!, 'POST', path, { token, json: bodyOf(n) })));
      const statuses = answers.map((a) => a.status);
      expect([...statuses].sort(), `${path}: ${answers.map((a) => a.text.slice(0, 200)).join(' | ')}`).toEqual([200, 409, 409, 409]);
      for (const lost of answers.filter((a) => a.status === 409)) expect(lost.body.code).toBe('ACTION_NOT_ALLOWED');
      const n = statuses.indexOf(200);
      return { n, winner: answers[n]!, requestId: answers[n]!.headers.get('x-request-id') };
    }

    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      const created = await call(cluster.url, 'POST', '/api/ship/claims/submissions', { token: t, json: { carrier: 'FEDEX', findingIds: [finding!.id] } });
      expect(created.status, created.text).toBe(201);
      const id = created.body.submission.id as string;
      const ref = (step: string, n: number) => `FICT-${round}-${step}-${n}`;
      const winners: Array<string | null> = [];
      const read = async () => (await call(cluster.url, 'GET', sub(id), { token: t })).body.submission;

      const packet = await race(`${sub(id)}/generate-packet`, () => ({}));
      winners.push(packet.requestId);
      expect((await read()).packetUrl).toBe(packet.winner.body.submission.packetUrl);
      // The packet one instance wrote is served by both (one shared artifacts directory).
      for (const base of instances) {
        const pdf = await fetch(`${base}${sub(id)}/packet.pdf`, { headers: { authorization: `Bearer ${t}` } });
        expect(pdf.status, base).toBe(200);
        expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
      }

      const submitted = await race(`${sub(id)}/submit`, (n) => ({ externalReference: ref('submit', n) }));
      winners.push(submitted.requestId);
      let now = await read();
      expect([now.status, now.externalReference, now.submittedAt === null]).toEqual(['SUBMITTED', ref('submit', submitted.n), false]);

      const acknowledged = await race(`${sub(id)}/acknowledge`, (n) => ({ externalReference: ref('ack', n) }));
      winners.push(acknowledged.requestId);
      now = await read();
      expect([now.status, now.externalReference, now.acknowledgedAt === null]).toEqual(['ACKNOWLEDGED', ref('ack', acknowledged.n), false]);

      const credited = await race(`${sub(id)}/confirm-credit`, (n) => ({ confirmation: { source: 'fedex_billing_online', referenceId: ref('credit', n), confirmedAt: '2026-11-20T10:00:00.000Z' }, amountsByFinding: { [finding!.id]: 10 + n } }));
      winners.push(credited.requestId);
      now = await read();
      expect([now.status, now.amountsByFinding, now.creditConfirmedAt === null]).toEqual(['CREDIT_CONFIRMED', { [finding!.id]: 10 + credited.n }, false]);

      // The operator's close through the control API, the same way (it frees nothing more: the finding is free).
      const closed = await race(`/_sim/tenants/${tenant.id}/claims/submissions/${id}/close`, () => ({ reason: `round ${round}` }), cluster.adminToken);
      winners.push(closed.requestId);
      expect((await read()).status).toBe('CLOSED');

      // One recorded move per transition, each made by the request that won it.
      const log = (await transitions(id)).map((entry) => [entry.from, entry.to]);
      expect(log).toEqual([[null, 'DRAFT'], ['DRAFT', 'READY'], ['READY', 'SUBMITTED'], ['SUBMITTED', 'ACKNOWLEDGED'], ['ACKNOWLEDGED', 'CREDIT_CONFIRMED'], ['CREDIT_CONFIRMED', 'CLOSED']]);
      const madeBy = (await transitions(id)).slice(1, 5).map((entry) => entry.requestId);
      expect(madeBy).toEqual(winners.slice(0, 4));
    }
  });

  it('finishes a job and delivers its webhook on the other instance when the one running it is SIGKILLed, losing no acknowledged write', { timeout: 150_000 }, async () => {
    const tenant = await newTenant(true);
    const webhookUrl = `${receiver.url}/jobs`;
    const enqueue = () => call(cluster.url, 'POST', '/api/sima/batch', { token: tenant.token, json: { skus: null, webhookUrl } });

    // The job to kill: wait until it processes, then find the instance holding its lease.
    const first = await enqueue();
    expect(first.status, first.text).toBe(202);
    const jobId = first.body.jobId as string;
    await until(async () => (await call(cluster.url, 'GET', `/api/jobs/${jobId}`, { token: tenant.token })).body.status === 'PROCESSING', 'the job to process', 10_000);
    const [lease] = await sql<Array<{ owner: string }>>`SELECT "owner" FROM sim_leases WHERE "kind" = 'job' AND "id" = ${jobId}`;
    expect(lease, 'the running job has a lease').toBeDefined();
    const victim = cluster.instances.find((i) => i.id === lease!.owner)!;
    const survivor = cluster.instances.find((i) => i !== victim)!;
    expect(victim, `lease owner ${lease!.owner}`).toBeDefined();

    // Writes keep coming through the load balancer while the instance dies: each 202 must survive it.
    const acknowledged = new Set<string>([jobId]);
    const refusals: string[] = [];
    let loading = true;
    const load = async () => {
      while (loading) {
        try {
          const res = await enqueue();
          if (res.status === 202) acknowledged.add(res.body.jobId);
          // A request cut by the kill is answered by HAProxy (502/503/504): never acknowledged, so not lost.
          else if (![502, 503, 504].includes(res.status)) refusals.push(`${res.status} ${res.text.slice(0, 200)}`);
        } catch {
          // the connection went down with the instance
        }
      }
    };
    const loaders = Promise.all([load(), load()]);
    await sleep(300);
    const killedAt = Date.now();
    await victim.kill('SIGKILL');
    await sleep(1_500);
    loading = false;
    await loaders;
    expect(refusals).toEqual([]);
    expect((await call(cluster.url, 'GET', `/api/jobs/${jobId}`, { token: tenant.token })).body.status, 'still unfinished right after the kill').toBe('PROCESSING');

    // The survivor takes the job over once the victim's lease expires (kernel/lease-keeper.ts: 15 s).
    const job = (id: string) => call(survivor.url, 'GET', `/api/jobs/${id}`, { token: tenant.token });
    const delivered = async (id: string) => (await admin('GET', `/_sim/webhooks/deliveries?jobId=${id}`, undefined, survivor.url)).body.deliveries as Array<{ id: string; status: string }>;
    let unfinished = [...acknowledged];
    await until(
      async () => {
        const still: string[] = [];
        for (const id of unfinished) {
          const answer = await job(id);
          expect(answer.status, `acknowledged job ${id}`).toBe(200);
          const deliveries = answer.body.status === 'COMPLETED' ? await delivered(id) : [];
          if (!(deliveries.length === 1 && deliveries[0]!.status === 'delivered')) still.push(id);
        }
        unfinished = still;
        return still.length === 0;
      },
      () => `acknowledged jobs to complete and deliver their webhook: ${unfinished.join(', ')}`,
      60_000,
    );
    expect(Date.now() - killedAt).toBeGreaterThan(JOB_PROCESSING_MS); // finished after the kill, so by the survivor

    // Processed once: one move into COMPLETED per job, one delivery, whose id every request carried.
    const sentFor = (id: string) => receiver.requests.filter((r) => (JSON.parse(r.rawBody) as { job: { id: string } }).job.id === id);
    for (const id of acknowledged) {
      expect((await transitions(id)).filter((entry) => entry.to === 'COMPLETED'), id).toHaveLength(1);
      const [delivery] = await delivered(id);
      const received = sentFor(id);
      expect(received.length, id).toBeGreaterThan(0);
      expect(new Set(received.map((r) => r.headers['x-svc-delivery-id'])), id).toEqual(new Set([delivery!.id]));
    }
    // The killed job's webhook was sent by the survivor alone, once (its delivery is created on completion).
    expect(sentFor(jobId)).toHaveLength(1);
    expect(await sql`SELECT 1 FROM sim_leases WHERE "kind" = 'job' AND "id" = ${jobId}`).toHaveLength(0);

    // Back in: restarted on its port, it serves again and the load balancer sends it traffic.
    await victim.restart();
    expect((await call(victim.url, 'GET', '/healthz')).status).toBe(200);
    await until(async () => (await call(cluster.url, 'GET', `/api/jobs/${jobId}`, { token: tenant.token })).status === 200 && (await admin('GET', '/_sim/requests?limit=200', undefined, victim.url)).body.items.length > 0, 'the load balancer to use the restarted instance', 15_000);
  });
  it('hands a running job over when its instance stops with SIGTERM: the other finishes it and delivers its webhook, without waiting for the lease to expire', { timeout: 90_000 }, async () => {
    const tenant = await newTenant(true);
    const accepted = await call(cluster.url, 'POST', '/api/sima/batch', { token: tenant.token, json: { skus: null, webhookUrl: `${receiver.url}/stopped` } });
    expect(accepted.status, accepted.text).toBe(202);
    const jobId = accepted.body.jobId as string;
    await until(async () => (await call(cluster.url, 'GET', `/api/jobs/${jobId}`, { token: tenant.token })).body.status === 'PROCESSING', 'the job to process', 10_000);
    const [lease] = await sql<Array<{ owner: string }>>`SELECT "owner" FROM sim_leases WHERE "kind" = 'job' AND "id" = ${jobId}`;
    const stopping = cluster.instances.find((i) => i.id === lease?.owner);
    expect(stopping, `lease owner ${lease?.owner}`).toBeDefined();
    const survivor = cluster.instances.find((i) => i !== stopping)!;

    await stopping!.kill('SIGTERM');
    const stoppedAt = Date.now();
    // Handed over, not released: a released lease would leave the job to nobody until a restart.
    const [after] = await sql<Array<{ owner: string }>>`SELECT "owner" FROM sim_leases WHERE "kind" = 'job' AND "id" = ${jobId}`;
    expect(after, 'the lease after the stop').toBeDefined();
    expect(after!.owner, 'the lease after the stop').not.toBe(stopping!.id);
    await until(
      async () => {
        const job = await call(survivor.url, 'GET', `/api/jobs/${jobId}`, { token: tenant.token });
        const deliveries = job.body.status === 'COMPLETED' ? (await admin('GET', `/_sim/webhooks/deliveries?jobId=${jobId}`, undefined, survivor.url)).body.deliveries : [];
        return deliveries.length === 1 && deliveries[0].status === 'delivered';
      },
      'the survivor to finish the job and deliver its webhook',
      60_000,
    );
    // The stopped instance's heartbeat would have kept its lease from takers for up to 15 s (LEASE_TTL_MS).
    console.log(`job handed over on SIGTERM: finished and delivered by the other instance ${Date.now() - stoppedAt} ms after the stop`);
    expect((await transitions(jobId)).filter((entry) => entry.to === 'COMPLETED')).toHaveLength(1);
    expect(receiver.requests.filter((r) => (JSON.parse(r.rawBody) as { job: { id: string } }).job.id === jobId)).toHaveLength(1);

    await stopping!.restart();
    await until(async () => (await call(stopping!.url, 'GET', '/healthz')).status === 200, 'the stopped instance to serve again', 15_000);
  });

  // Last: it empties the sandbox. Each instance keeps the signing secret once read (a read per request
  // otherwise); a reset made through one instance must reach the other's copy before a new token does.
  it('verifies on both instances a token signed after a sandbox reset made through one of them', async () => {
    const [one, two] = cluster.instances.map((i) => i.url) as [string, string];
    const before = await newTenant(false);
    expect((await call(two, 'GET', '/api/jobs?limit=1', { token: before.token })).status).toBe(200);
    const reset = await admin('POST', '/_sim/reset', undefined, one);
    expect(reset.status, reset.text).toBe(200);
    const token = await tokenFor(reset.body.integrationKey ?? cluster.apiKey, one);
    for (const base of [one, two]) {
      const answer = await call(base, 'GET', '/api/jobs?limit=1', { token });
      expect(answer.status, `${base}: ${answer.text}`).toBe(200);
      expect((await call(base, 'GET', '/api/jobs?limit=1', { token: before.token })).status).toBe(401);
    }
  });
});
