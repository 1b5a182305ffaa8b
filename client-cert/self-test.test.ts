// The certification proven like the suite's defect self-test (conformance/self-test/defects.test.ts): a
// client that keeps every rule is certified with every rule exercised and passed, and each deliberately
// wrong client of scripts/examples/bad/ fails exactly its rule and no other. One sandbox process, short
// job timings, up to four certifications at once (each on tenants of its own).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorProcess, type SimulatorProcess } from '../simulator/testing/process.js';
import { CLIENT_RULES } from './rules/index.js';
import { certify } from './run.js';
import type { Certificate } from './types.js';

const ADMIN = 'client-cert-self-test-admin';

/** Each wrong client, the scenario that provokes it, and the one rule it must fail. */
export const WRONG_CLIENTS = [
  { client: 'polls-every-200ms', scenario: 'steady', rule: 'polling.pace' },
  { client: 'keeps-polling-finished-job', scenario: 'steady', rule: 'polling.stops-when-terminal' },
  { client: 'token-per-call', scenario: 'steady', rule: 'token.reused' },
  { client: 'retries-after-400', scenario: 'steady', rule: 'retry.none-after-4xx' },
  { client: 'retries-429-at-once', scenario: 'throttled', rule: 'retry.waits-after-429' },
  { client: 'exchange-without-backoff', scenario: 'throttled', rule: 'token.exchange-backoff' },
  { client: 'retries-write-thrice', scenario: 'flaky', rule: 'retry.write-once-after-5xx' },
  { client: 'retries-keyless-upload', scenario: 'flaky', rule: 'retry.upload-without-key' },
  { client: 'accepts-bad-signature', scenario: 'webhooks', rule: 'webhook.rejects-bad-signature' },
  { client: 'ignores-v1-prefix', scenario: 'webhooks', rule: 'webhook.checks-v1-prefix' },
  { client: 'accepts-stale-timestamp', scenario: 'webhooks', rule: 'webhook.rejects-stale-timestamp' },
  { client: 'processes-duplicates', scenario: 'webhooks', rule: 'webhook.deduplicates' },
] as const;

let sim: SimulatorProcess;
let dir: string;
const certificates = new Map<string, Certificate>();

const run = (client: string, scenario: string) =>
  certify({ baseUrl: sim.url, adminToken: ADMIN, scenario, command: [process.execPath, `scripts/examples/bad/${client}.mjs`], timeoutMs: 120_000 });

/** Runs `tasks` with at most `limit` at once (two cores: the clients mostly wait on their polls). */
async function pool<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < tasks.length) await tasks[next++]!();
  }));
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'client-cert-'));
  // A job takes ~3 s, so that a client polls it more than once before it ends.
  sim = await startSimulatorProcess({ SIM_DB: path.join(dir, 'store.mdb'), SIM_ADMIN_TOKEN: ADMIN, SIM_JOB_START_DELAY_MS: '200', SIM_JOB_PROCESSING_MS: '3000' });
  const tasks = [
    async () => void certificates.set('good', await run('good', 'all')),
    ...WRONG_CLIENTS.map(({ client, scenario }) => async () => void certificates.set(client, await run(client, scenario))),
  ];
  await pool(tasks, 4);
}, 900_000);

afterAll(async () => {
  await sim?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const failedRules = (certificate: Certificate) => certificate.rules.filter((r) => r.verdict === 'failed').map((r) => r.id);

describe('the client certification self-test', () => {
  it('has one wrong client per rule, and no rule without one', () => {
    expect(WRONG_CLIENTS.map((w) => w.rule).sort()).toEqual(CLIENT_RULES.map((r) => r.id).sort());
  });

  it('certifies the client that keeps the rules under --scenario all, every rule exercised and passed', () => {
    const certificate = certificates.get('good')!;
    const verdicts = Object.fromEntries(certificate.rules.map((r) => [r.id, r.verdict]));
    expect(verdicts).toEqual(Object.fromEntries(CLIENT_RULES.map((r) => [r.id, 'passed'])));
    expect(certificate.certified).toBe(true);
    expect(certificate.runs.map((r) => r.scenario)).toEqual(['steady', 'throttled', 'flaky', 'webhooks']);
  });

  it.each(WRONG_CLIENTS)('$client fails exactly $rule ($scenario)', ({ client, rule }) => {
    const certificate = certificates.get(client)!;
    expect(failedRules(certificate), JSON.stringify(certificate.rules.filter((r) => r.verdict === 'failed').map((r) => r.runs.map((x) => x.failures)))).toEqual([rule]);
    const level = CLIENT_RULES.find((r) => r.id === rule)!.level;
    // A recommended rule (the spec's "may") warns without failing the certificate.
    expect(certificate.certified).toBe(level === 'recommended');
  });
});
