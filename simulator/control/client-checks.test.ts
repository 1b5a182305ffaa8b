// /_sim/client-checks over HTTP (client-checks.ts): a run registered as running, completed once with its
// verdict and report, listed newest first, its report served as HTML; bounded to the last 50 runs and a
// capped report; behind the admin token; gone with its tenant. Every response is checked against the
// control contract by the test client.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';
import { KEPT_RUNS, REPORT_MAX_CHARS } from './client-checks.js';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await startTestSandbox();
});
afterEach(() => sandbox.close());

const REPORT = '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><style>h1{color:#15803d}</style></head><body><h1 id="verdict">CERTIFIED</h1></body></html>\n';

const registration = (tenantId: string, scenario = 'steady') => ({ tenantId, scenario, command: 'node examples/client.js', startedAt: '2026-11-27T10:00:00.000Z', certificationId: null });
const completion = (reportHtml: string | null = REPORT) => ({
  verdict: 'CERTIFIED',
  totals: { passed: 6, failed: 0, warnings: 1, notExercised: 2 },
  rules: [{ id: 'retries-on-server-error', level: 'required', verdict: 'passed' }],
  finishedAt: '2026-11-27T10:01:00.000Z',
  reportHtml,
});

describe('/_sim/client-checks', () => {
  it('registers a run as running, completes it with its verdict and serves its report as text/html', async () => {
    const tenantId = sandbox.identity.tenantId;
    const before = Date.now();
    const registered = await sandbox.admin('POST', '/_sim/client-checks', registration(tenantId, 'flaky'));
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body).toMatchObject({ tenantId, scenario: 'flaky', status: 'running', verdict: null, totals: null, rules: [], completedAt: null, reportBytes: null });
    // The sandbox's wall clock, the request log's: the run's window there starts at registration.
    expect(Date.parse(registered.body.registeredAt)).toBeGreaterThanOrEqual(before - 5);
    const runId = registered.body.id;

    const running = await sandbox.admin('GET', `/_sim/client-checks/${runId}/report`);
    expect([running.status, running.body.code]).toEqual([404, 'NOT_FOUND']);

    const completed = await sandbox.admin('PUT', `/_sim/client-checks/${runId}/completion`, completion());
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body).toMatchObject({ id: runId, status: 'completed', verdict: 'CERTIFIED', totals: { passed: 6, failed: 0, warnings: 1, notExercised: 2 }, finishedAt: '2026-11-27T10:01:00.000Z', reportBytes: Buffer.byteLength(REPORT) });
    expect(Date.parse(completed.body.completedAt)).toBeGreaterThanOrEqual(Date.parse(registered.body.registeredAt));
    expect((await sandbox.admin('GET', `/_sim/client-checks/${runId}`)).body).toEqual(completed.body);

    const report = await sandbox.admin('GET', `/_sim/client-checks/${runId}/report`);
    expect(report.status).toBe(200);
    expect(report.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(report.text).toBe(REPORT);
    // It styles itself and runs nothing.
    expect(report.headers['content-security-policy']).toContain("style-src 'unsafe-inline'");
    expect(report.headers['content-security-policy']).toContain("default-src 'none'");
    expect(report.headers['content-security-policy']).not.toContain('script-src');
  });

  it('lists the runs newest first, those of one tenant when asked', async () => {
    const first = sandbox.identity.tenantId;
    const second = (await sandbox.admin('POST', '/_sim/tenants', { name: 'Second' })).body.tenantId;
    const a = (await sandbox.admin('POST', '/_sim/client-checks', registration(first, 'steady'))).body.id;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const b = (await sandbox.admin('POST', '/_sim/client-checks', registration(second, 'throttled'))).body.id;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const c = (await sandbox.admin('POST', '/_sim/client-checks', registration(first, 'webhooks'))).body.id;

    const all = await sandbox.admin('GET', '/_sim/client-checks');
    expect(all.status).toBe(200);
    expect(all.body.items.map((r: { id: string }) => r.id)).toEqual([c, b, a]);
    expect(all.body.kept).toBe(KEPT_RUNS);
    expect((await sandbox.admin('GET', `/_sim/client-checks?tenantId=${first}`)).body.items.map((r: { id: string }) => r.id)).toEqual([c, a]);
    expect((await sandbox.admin('GET', '/_sim/client-checks?limit=1')).body.items.map((r: { id: string }) => r.id)).toEqual([c]);
  });

  it('answers 404 for an unknown run, tenant or missing report, and 409 when a run is completed again', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path, body] of [
      ['GET', `/_sim/client-checks/${unknown}`, undefined],
      ['GET', `/_sim/client-checks/${unknown}/report`, undefined],
      ['PUT', `/_sim/client-checks/${unknown}/completion`, completion()],
      ['POST', '/_sim/client-checks', registration(unknown)],
    ] as const) {
      const answer = await sandbox.admin(method, path, body);
      expect([answer.status, answer.body.code], `${method} ${path}`).toEqual([404, 'NOT_FOUND']);
    }
    const runId = (await sandbox.admin('POST', '/_sim/client-checks', registration(sandbox.identity.tenantId))).body.id;
    // Completed without a report (longer than the cap on the certifier's side): listed, no report served.
    expect((await sandbox.admin('PUT', `/_sim/client-checks/${runId}/completion`, completion(null))).body.reportBytes).toBeNull();
    const noReport = await sandbox.admin('GET', `/_sim/client-checks/${runId}/report`);
    expect([noReport.status, noReport.body.code]).toEqual([404, 'NOT_FOUND']);
    const again = await sandbox.admin('PUT', `/_sim/client-checks/${runId}/completion`, completion());
    expect([again.status, again.body.code]).toEqual([409, 'ACTION_NOT_ALLOWED']);
    expect((await sandbox.admin('GET', `/_sim/client-checks/${runId}/report`)).status).toBe(404);
  });

  it('refuses a report longer than the cap, and a registration that names no tenant', async () => {
    const runId = (await sandbox.admin('POST', '/_sim/client-checks', registration(sandbox.identity.tenantId))).body.id;
    const tooLong = await sandbox.admin('PUT', `/_sim/client-checks/${runId}/completion`, completion('x'.repeat(REPORT_MAX_CHARS + 1)));
    expect([tooLong.status, tooLong.body.code]).toEqual([400, 'INVALID_REQUEST']);
    expect((await sandbox.admin('GET', `/_sim/client-checks/${runId}`)).body.status).toBe('running');
    const { tenantId: _omitted, ...withoutTenant } = registration(sandbox.identity.tenantId);
    const refused = await sandbox.admin('POST', '/_sim/client-checks', withoutTenant);
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('requires the admin token on every route', async () => {
    const runId = (await sandbox.admin('POST', '/_sim/client-checks', registration(sandbox.identity.tenantId))).body.id;
    await sandbox.admin('PUT', `/_sim/client-checks/${runId}/completion`, completion());
    const integrationToken = await sandbox.token();
    for (const token of [null, 'not-the-admin-token', integrationToken]) {
      for (const [method, path, body] of [
        ['GET', '/_sim/client-checks', undefined],
        ['POST', '/_sim/client-checks', registration(sandbox.identity.tenantId)],
        ['GET', `/_sim/client-checks/${runId}`, undefined],
        ['PUT', `/_sim/client-checks/${runId}/completion`, completion()],
        ['GET', `/_sim/client-checks/${runId}/report`, undefined],
      ] as const) {
        const answer = await sandbox.call(method, path, { token, body });
        expect([answer.status, answer.body.code], `${method} ${path} with ${token === null ? 'no token' : token}`).toEqual([401, 'INVALID_TOKEN']);
      }
    }
  });

  it(`keeps the last ${KEPT_RUNS} runs: registering one more drops the oldest with its report`, async () => {
    const tenantId = sandbox.identity.tenantId;
    const oldest = (await sandbox.admin('POST', '/_sim/client-checks', registration(tenantId, 'oldest'))).body.id;
    await sandbox.admin('PUT', `/_sim/client-checks/${oldest}/completion`, completion());
    for (let i = 1; i < KEPT_RUNS; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1)); // distinct registration times, so "oldest" is one run
      expect((await sandbox.admin('POST', '/_sim/client-checks', registration(tenantId, `run-${i}`))).status).toBe(201);
    }
    expect((await sandbox.admin('GET', '/_sim/client-checks')).body.items).toHaveLength(KEPT_RUNS);
    expect((await sandbox.admin('GET', `/_sim/client-checks/${oldest}/report`)).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1));
    const newest = (await sandbox.admin('POST', '/_sim/client-checks', registration(tenantId, 'newest'))).body.id;
    const listed = (await sandbox.admin('GET', '/_sim/client-checks')).body.items.map((r: { id: string }) => r.id);
    expect(listed).toHaveLength(KEPT_RUNS);
    expect(listed[0]).toBe(newest);
    expect(listed).not.toContain(oldest);
    expect((await sandbox.admin('GET', `/_sim/client-checks/${oldest}`)).status).toBe(404);
    expect((await sandbox.admin('GET', `/_sim/client-checks/${oldest}/report`)).status).toBe(404);
    expect(await sandbox.sim.deps.store.collection('clientCheckReports').count()).toBe(0);
  });

  it("goes with its tenant: deleting a tenant removes its runs and reports, another tenant's stay", async () => {
    const victim = (await sandbox.admin('POST', '/_sim/tenants', { name: 'Victim' })).body.tenantId;
    const bystander = sandbox.identity.tenantId;
    const gone = (await sandbox.admin('POST', '/_sim/client-checks', registration(victim))).body.id;
    await sandbox.admin('PUT', `/_sim/client-checks/${gone}/completion`, completion());
    const kept = (await sandbox.admin('POST', '/_sim/client-checks', registration(bystander))).body.id;
    await sandbox.admin('PUT', `/_sim/client-checks/${kept}/completion`, completion());

    const deleted = await sandbox.admin('DELETE', `/_sim/tenants/${victim}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await sandbox.admin('GET', '/_sim/client-checks')).body.items.map((r: { id: string }) => r.id)).toEqual([kept]);
    expect((await sandbox.admin('GET', `/_sim/client-checks/${gone}/report`)).status).toBe(404);
    expect((await sandbox.admin('GET', `/_sim/client-checks/${kept}/report`)).text).toBe(REPORT);
  });

  it('is emptied by a reset', async () => {
    await sandbox.admin('POST', '/_sim/client-checks', registration(sandbox.identity.tenantId));
    expect((await sandbox.admin('POST', '/_sim/reset')).status).toBe(200);
    expect((await sandbox.admin('GET', '/_sim/client-checks')).body.items).toEqual([]);
  });
});
