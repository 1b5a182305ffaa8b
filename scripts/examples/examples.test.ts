// The three client examples run as an integrator runs them (`node --import tsx scripts/examples/<x>.ts`
// with SANDBOX_URL and SANDBOX_API_KEY) against a started sandbox, each on its own tenant so that they can
// run at once. Fast job timings keep the whole file well under a minute; the webhook receivers are on
// loopback, which the sandbox allows here through SIM_WEBHOOK_ALLOW_TARGETS.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';
import { createSandboxClient, ok } from './lib/client.js';

const run = promisify(execFile);
const ADMIN = 'examples-test-admin-token';
let sim: SimulatorProcess;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'examples-'));
  sim = await startSimulatorProcess({
    SIM_DB: path.join(dir, 'store.mdb'),
    SIM_ADMIN_TOKEN: ADMIN,
    SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
    SIM_JOB_START_DELAY_MS: '50',
    SIM_JOB_PROCESSING_MS: '200',
  });
});

afterAll(async () => {
  await sim?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A new tenant through the control API; its integration key is what the example is given. */
async function newTenantKey(): Promise<{ tenantId: string; integrationKey: string }> {
  const response = await fetch(`${sim.url}/_sim/tenants`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(201);
  return (await response.json()) as { tenantId: string; integrationKey: string };
}

async function runExample(name: 'sima' | 'feed' | 'ship'): Promise<string> {
  const { integrationKey } = await newTenantKey();
  const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', `scripts/examples/${name}.ts`], {
    env: { ...process.env, SANDBOX_URL: sim.url, SANDBOX_API_KEY: integrationKey, EXAMPLE_TIMEOUT_SECONDS: '40' },
    timeout: 50_000,
  }).catch((error: { stdout?: string; stderr?: string; code?: number }) => {
    throw new Error(`example:${name} exited ${error.code}:\n${error.stdout}\n${error.stderr}`);
  });
  return stdout + stderr;
}

describe('client examples against a started sandbox', () => {
  it('runs example:sima, example:feed and example:ship to the end (exit 0), each verifying its webhooks', async () => {
    const [sima, feed, ship] = await Promise.all([runExample('sima'), runExample('feed'), runExample('ship')]);

    expect(sima).toMatch(/token: exchanged the integration key for a Bearer token valid \d+ s/);
    expect(sima).toMatch(/webhook: job\.completed for sima_validation job \S+, signature verified/);
    expect(sima).toMatch(/job \S+ COMPLETED: 25 SKUs screened/);
    expect(sima).toMatch(/AT_RISK results: (\d+) \(summary says \1\)/);
    expect(sima).toMatch(/evidence sections: result, classification, attributes, measureApplicability, thresholds, exposure, history, auditTrail/);
    expect(sima).toContain('example:sima: done');

    expect(feed).toMatch(/webhook: job\.completed for catalog_upload job \S+, signature verified/);
    expect(feed).toMatch(/poll: session \S+ READY/);
    expect(feed).toMatch(/review \S+ persisted \(5 rows\)/);
    expect(feed).toMatch(/session \S+ APPLIED/);
    expect(feed).toMatch(/screening COMPLETED: atRisk=\d+ needsReview=\d+ cleared=\d+/);
    expect(feed).toContain('example:feed: done');

    expect(ship).toMatch(/webhook: job\.completed for carrier_agreement_upload job \S+, signature verified/);
    expect(ship).toMatch(/webhook: job\.completed for ship_upload job \S+, signature verified/);
    for (const state of ['generate-packet: READY', 'submit: SUBMITTED', 'acknowledge: ACKNOWLEDGED', 'confirm-credit: CREDIT_CONFIRMED']) expect(ship).toContain(state);
    expect(ship).toMatch(/claim \S+ CREDIT_CONFIRMED, 3 findings CREDITED/);
    expect(ship).toContain('example:ship: done');
  });

  it('exits 1 with the error envelope and its request id when the integration key is refused', async () => {
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/examples/sima.ts'], { env: { ...process.env, SANDBOX_URL: sim.url, SANDBOX_API_KEY: 'ik_not_a_key' } }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/example:sima failed: token exchange \(check SANDBOX_API_KEY\): 401 INVALID_API_KEY .*\(X-Request-Id \S+\)/);
  });

  it('re-exchanges the key when the sandbox clock passes the token expiry, and the request succeeds (spec 5.2)', async () => {
    const { tenantId, integrationKey } = await newTenantKey();
    const lines: string[] = [];
    const client = createSandboxClient({ baseUrl: sim.url, apiKey: integrationKey, log: (l) => lines.push(l) });
    ok(await client.api.GET('/api/jobs'), 'list jobs');
    const advanced = await fetch(`${sim.url}/_sim/clock/advance`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 3601, tenantId }) });
    expect(advanced.status).toBe(200);
    expect(ok(await client.api.GET('/api/jobs'), 'list jobs again').count).toBe(0);
    expect(client.exchanges()).toBe(2);
    expect(lines.some((l) => l.includes('answered 401 INVALID_TOKEN') && l.includes('exchanging the key again'))).toBe(true);
  });
});
