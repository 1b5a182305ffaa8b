// The Postman collection (issue 29 item 4): the committed files are what `npm run contracts:postman` writes
// now, and newman runs the three workflow folders (spec 1: A, B, C) against a started sandbox, every request
// and every test of theirs passing.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import newman, { type RunSummary } from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';
import { buildCollection, buildEnvironment, POSTMAN_VERSION, postmanText } from './collection.js';
import { WORKFLOW_FOLDERS } from './workflows.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const COLLECTION_FILE = path.join(ROOT, 'contracts', POSTMAN_VERSION, 'postman.json');
const ENVIRONMENT_FILE = path.join(ROOT, 'contracts', POSTMAN_VERSION, 'postman.environment.json');
const ADMIN = 'postman-test-admin-token';
/** The whole newman run is bounded: a stuck poll or a hung request fails it instead of hanging the suite. */
const RUN_BOUND_MS = 240_000;

describe('the committed Postman collection', () => {
  it('is what npm run contracts:postman writes now (collection and environment)', async () => {
    expect(readFileSync(COLLECTION_FILE, 'utf8'), 'run npm run contracts:postman').toBe(postmanText(await buildCollection()));
    expect(readFileSync(ENVIRONMENT_FILE, 'utf8'), 'run npm run contracts:postman').toBe(postmanText(buildEnvironment()));
  }, 120_000);
});

describe('newman against a started sandbox', () => {
  let sim: SimulatorProcess;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'postman-'));
    sim = await startSimulatorProcess({ SIM_DB: path.join(dir, 'store.mdb'), SIM_ADMIN_TOKEN: ADMIN, SIM_JOB_START_DELAY_MS: '50', SIM_JOB_PROCESSING_MS: '200' });
  }, 120_000);
  afterAll(async () => {
    await sim?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs workflows A, B and C from the served collection and environment, every request and test passing', async () => {
    // A tenant of its own, through the control API; its key goes where a user puts theirs: the environment.
    const tenant = await fetch(`${sim.url}/_sim/tenants`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: '{}' });
    expect(tenant.status).toBe(201);
    const { integrationKey } = (await tenant.json()) as { integrationKey: string };
    // The files as the sandbox serves them: baseUrl already its own address.
    const [collection, environment] = await Promise.all(['postman.json', 'postman.environment.json'].map(async (file) => {
      const res = await fetch(`${sim.url}/contracts/${POSTMAN_VERSION}/${file}`);
      expect(res.status, file).toBe(200);
      return res.json() as Promise<{ values?: Array<{ key: string; value: string }> }>;
    }));
    expect(environment.values?.find((v) => v.key === 'baseUrl')?.value).toBe(sim.url);
    environment.values = environment.values!.map((v) => (v.key === 'apiKey' ? { ...v, value: integrationKey } : v));

    const summary = await new Promise<RunSummary>((resolve, reject) =>
      newman.run(
        { collection, environment, folder: WORKFLOW_FOLDERS.map((f) => f.name), workingDir: ROOT, insecureFileRead: false, timeout: RUN_BOUND_MS, timeoutRequest: 30_000, reporters: [] },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    const failures = summary.run.failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.test ?? f.error.name}: ${f.error.message}`);
    expect(failures).toEqual([]);
    // Every step of every folder ran (a poll runs its step more than once), each answered as its test expects.
    const ran = new Set(summary.run.executions.map((e) => e.item.name));
    for (const folder of WORKFLOW_FOLDERS) for (const step of folder.steps) expect(ran, step.name).toContain(step.name);
    expect(summary.run.stats.assertions.total).toBeGreaterThan(WORKFLOW_FOLDERS.reduce((n, f) => n + f.steps.length, 0));
  }, RUN_BOUND_MS + 60_000);
});
