// What the bench sends (issue 15 item 1), and how each target is made ready for it. The simulator is a real
// sandbox: a tenant whose rate buckets and queue caps are lifted through the control API (429s are not the
// traffic being measured), a bearer from the token exchange, a completed SIMA job and its results. Prism's
// mock answers from the contract's examples, so any well-formed request will do; the Koa+ajv reference app
// serves the very bodies the simulator answered. Request bodies come from the contract's own examples.
import { isObject, loadContract } from '../../contracts/lib/bundle.js';
import { listOperations } from '../../contracts/lib/operations.js';
import { loadRound, type RequestSpec, type Round } from './load.js';
import type { BenchProcess } from './processes.js';

/** `baseline`: the simulator of another checkout (`npm run bench -- --baseline DIR`), in the same rounds. */
export type TargetName = 'simulator' | 'baseline' | 'prism' | 'reference';

export interface Scenario {
  id: string;
  title: string;
  /** read: an authenticated GET; write: a persisted POST (202 after the journal's fsync); other: a POST that stores nothing the bench reads. */
  kind: 'read' | 'write' | 'other';
  /** Who else runs it (the simulator always does). */
  against: TargetName[];
}

/** The number of results in the contract's example page, which is what Prism's mock serves: the simulator
 *  is asked for a page of the same size, so both send bodies of comparable size. */
const RESULTS_PAGE = (() => {
  const op = listOperations(loadContract('v1.3.0')).find((o) => o.operationId === 'listSimaResults');
  const ok = op && isObject(op.operation.responses) ? op.operation.responses['200'] : undefined;
  const media = isObject(ok) && isObject(ok.content) ? ok.content['application/json'] : undefined;
  const example = isObject(media) ? media.example : undefined;
  if (!isObject(example) || !Array.isArray(example.outcomes)) throw new Error('the contract has no example page of listSimaResults');
  return example.outcomes.length;
})();
const RESULTS_PATH = `/api/sima/results?limit=${RESULTS_PAGE}`;

export const SCENARIOS: Scenario[] = [
  { id: 'get-job', title: 'GET /api/jobs/{jobId}', kind: 'read', against: ['prism', 'reference'] },
  { id: 'sima-results', title: `GET ${RESULTS_PATH}`, kind: 'read', against: ['prism', 'reference'] },
  { id: 'sima-batch', title: 'POST /api/sima/batch (persisted)', kind: 'write', against: ['prism'] },
  { id: 'landed-cost', title: 'POST /api/trade/landed-cost', kind: 'other', against: ['prism'] },
  { id: 'token', title: 'POST /api/auth/token/integration', kind: 'other', against: ['prism'] },
];

export interface Target {
  /** A TargetName, or another label (the store-growth scenario runs two simulators). */
  name: string;
  process: BenchProcess;
  request(scenarioId: string): RequestSpec;
}

const KEY = 'tfk_bench_key_0123456789';
const ADMIN = 'bench-admin-token';
const json = { 'content-type': 'application/json' };

/** The first request-body example of an operation of the bundled v1.3.0 contract. */
function exampleBody(operationId: string): unknown {
  const op = listOperations(loadContract('v1.3.0')).find((o) => o.operationId === operationId);
  const media = op && isObject(op.operation.requestBody) && isObject(op.operation.requestBody.content) ? op.operation.requestBody.content['application/json'] : undefined;
  const examples = isObject(media) && isObject(media.examples) ? Object.values(media.examples) : [];
  const first = examples.find((e) => isObject(e) && 'value' in e);
  if (!isObject(first)) throw new Error(`the contract has no request example for ${operationId}`);
  return first.value;
}
const QUOTE = exampleBody('calculateLandedCost') as { destinationCountry: string };
const QUOTE_BODY = JSON.stringify(QUOTE);
const BATCH_BODY = JSON.stringify({ skus: ['UDS-CHAIR-01'] });

async function call(url: string, init: RequestInit & { expect: number }): Promise<unknown> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  if (res.status !== init.expect) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

export interface SimulatorState {
  token: string;
  jobId: string;
  /** What the simulator answered to each read, by path: the reference app serves the same. */
  bodies: Record<string, unknown>;
}

/** Rate limits no bench load reaches. */
export const LIFTED_RATE_LIMITS = (() => {
  const lifted = { limit: 1_000_000_000, windowMs: 60_000 };
  return { read: lifted, write: lifted, upload: lifted };
})();

/** The default tenant's id, from the simulator's banner. */
function tenantOf(sim: BenchProcess): string {
  const tenantId = /^\s*tenant\s+(\S+)/m.exec(sim.output())?.[1];
  if (!tenantId) throw new Error(`no tenant in the simulator's banner:\n${sim.output()}`);
  return tenantId;
}

/** PUT /_sim/tenants/{default tenant}/settings (kept in the store: later starts on it have them too). */
export async function putTenantSettings(sim: BenchProcess, settings: Record<string, unknown>): Promise<string> {
  const tenantId = tenantOf(sim);
  await call(`${sim.url}/_sim/tenants/${tenantId}/settings`, { method: 'PUT', headers: { authorization: `Bearer ${ADMIN}`, ...json }, body: JSON.stringify(settings), expect: 200 });
  return tenantId;
}

/** The default tenant (its key is SIMULATOR_ENV's) made ready: limits lifted, a completed SIMA job, a token. */
export async function prepareSimulatorState(sim: BenchProcess): Promise<SimulatorState> {
  const url = sim.url;
  const admin = { authorization: `Bearer ${ADMIN}`, ...json };
  const cap = 1_000_000_000;
  // The quote's corridor configured, so it is computed (and its usage recorded), not the unconfigured outcome.
  const tenantId = await putTenantSettings(sim, {
    rateLimits: LIFTED_RATE_LIMITS,
    queueCaps: { total: cap, upload: cap, sima: cap, preview: cap },
    quoteCorridors: [{ originCountry: '*', destinationCountry: QUOTE.destinationCountry, enabled: true }],
  });
  const exchange = async () => ((await call(`${url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY }, expect: 200 })) as { access_token: string }).access_token;
  let token = await exchange();
  // Every catalog SKU screened (a null list), so the results page is a full one.
  const { jobId } = (await call(`${url}/api/sima/batch`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...json }, body: JSON.stringify({ skus: null }), expect: 202 })) as { jobId: string };
  // Jobs wait an hour of virtual time before they start (SIMULATOR_ENV: the jobs the write scenario
  // creates stay queued, so the worker does not run under the other scenarios' load); this one is moved
  // on by advancing the tenant's clock until it is done, with a new token once the first one's hour is over.
  for (let i = 0; ; i++) {
    await call(`${url}/_sim/clock/advance`, { method: 'POST', headers: admin, body: JSON.stringify({ seconds: 1800, tenantId }), expect: 200 });
    await new Promise((r) => setTimeout(r, 100));
    token = await exchange();
    const job = (await call(`${url}/api/jobs/${jobId}`, { headers: { authorization: `Bearer ${token}` }, expect: 200 })) as { status: string };
    if (job.status === 'COMPLETED') break;
    if (i >= 50) throw new Error(`bench job ${jobId} still ${job.status} after ${i} clock moves`);
  }
  const auth = { authorization: `Bearer ${token}` };
  const bodies = {
    [`/api/jobs/${jobId}`]: await call(`${url}/api/jobs/${jobId}`, { headers: auth, expect: 200 }),
    '/api/sima/results': await call(url + RESULTS_PATH, { headers: auth, expect: 200 }),
  };
  return { token, jobId, bodies };
}

/** Environment of the simulator under bench. */
export const SIMULATOR_ENV = { SIM_ADMIN_TOKEN: ADMIN, SIM_INTEGRATION_KEY: KEY, SIM_JOB_START_DELAY_MS: '3600000' };

export function simulatorTarget(process: BenchProcess, state: SimulatorState, name: TargetName = 'simulator'): Target {
  const bearer = { authorization: `Bearer ${state.token}` };
  const requests: Record<string, RequestSpec> = {
    'get-job': { method: 'GET', path: `/api/jobs/${state.jobId}`, headers: bearer, expect: 200 },
    'sima-results': { method: 'GET', path: RESULTS_PATH, headers: bearer, expect: 200 },
    'sima-batch': { method: 'POST', path: '/api/sima/batch', headers: { ...bearer, ...json }, body: BATCH_BODY, expect: 202 },
    'landed-cost': { method: 'POST', path: '/api/trade/landed-cost', headers: { ...bearer, ...json }, body: QUOTE_BODY, expect: 200 },
    token: { method: 'POST', path: '/api/auth/token/integration', headers: { 'x-api-key': KEY }, expect: 200 },
  };
  return { name, process, request: (id) => requests[id] };
}

/** Prism's mock: the same requests; it checks that credentials are present, not what they are. */
export function prismTarget(process: BenchProcess, jobId: string): Target {
  const sim = simulatorTarget(process, { token: 'bench-token', jobId, bodies: {} });
  return { name: 'prism', process, request: (id) => sim.request(id) };
}

/** The Koa+ajv app, seeded with the simulator's own answers. */
export async function referenceTarget(process: BenchProcess, state: SimulatorState): Promise<Target> {
  for (const [p, body] of Object.entries(state.bodies)) {
    await call(`${process.url}/_seed?path=${encodeURIComponent(p)}`, { method: 'PUT', headers: json, body: JSON.stringify(body), expect: 204 });
  }
  const sim = simulatorTarget(process, state);
  return { name: 'reference', process, request: (id) => sim.request(id) };
}

/** Warm-up for each, then alternating rounds (forward, then reversed): drift on the machine hits all. */
export async function runScenarioRounds(scenarioId: string, involved: Target[], options: { seconds: number; rounds: number; warmup: number; connections: number }): Promise<Record<string, Round[]>> {
  const rounds: Record<string, Round[]> = Object.fromEntries(involved.map((t) => [t.name, []]));
  for (const t of involved) await loadRound(t.process.url, t.process.child.pid!, t.request(scenarioId), { seconds: options.warmup, connections: options.connections });
  for (let r = 0; r < options.rounds; r++) {
    for (const t of r % 2 === 0 ? involved : [...involved].reverse()) {
      rounds[t.name].push(await loadRound(t.process.url, t.process.child.pid!, t.request(scenarioId), { seconds: options.seconds, connections: options.connections }));
    }
  }
  return rounds;
}
