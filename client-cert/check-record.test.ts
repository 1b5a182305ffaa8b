// The certification's record on the sandbox (check-record.ts): against a sandbox process, a run registers
// as it starts and completes with the certificate's verdict and the very HTML report the CLI writes; against
// a sandbox without the route (an older build, played by a proxy that answers the router's 404), the
// certification is the same and says so once, whatever the number of scenarios.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../contracts/lib/bundle.js';
import { freePort } from '../contracts/lib/prism.js';
import { startSimulatorProcess, type SimulatorProcess } from '../simulator/testing/process.js';
import { checkRecorder, REPORT_MAX_CHARS } from './check-record.js';
import { renderClientHtml } from './reporters/html.js';
import { certify } from './run.js';
import { RouteMissing, type ClientCheckCompletion, type ClientCheckRegistration } from './sandbox.js';
import type { Certificate } from './types.js';

const ADMIN = 'client-cert-record-admin';
let sim: SimulatorProcess;
let proxy: Server;
let proxyUrl: string;
let dir: string;

/** The sandbox as an older build: /_sim/client-checks answers the router's 404, everything else goes through. */
async function olderBuild(target: string): Promise<Server> {
  const port = await freePort();
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/_sim/client-checks')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'NOT_FOUND', message: `no route for ${req.method} ${req.url}` }));
      return;
    }
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${port}`;
  return server;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'client-cert-record-'));
  sim = await startSimulatorProcess({ SIM_DB: path.join(dir, 'store.mdb'), SIM_ADMIN_TOKEN: ADMIN, SIM_JOB_START_DELAY_MS: '200', SIM_JOB_PROCESSING_MS: '1500' });
  proxy = await olderBuild(sim.url);
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await sim?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const admin = async (url: string) => {
  const response = await fetch(`${sim.url}${url}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

const good = (baseUrl: string, notes: string[]) =>
  certify({ baseUrl, adminToken: ADMIN, scenario: 'steady', command: [process.execPath, 'scripts/examples/bad/good.mjs'], timeoutMs: 120_000, notice: (line) => notes.push(line) });

describe('the certification recorded on the sandbox', () => {
  it('registers its run as it starts and completes it with the verdict and the HTML report the CLI writes', async () => {
    const notes: string[] = [];
    const certificate = await good(sim.url, notes);
    expect(notes).toEqual([]);
    const tenantId = certificate.runs[0]!.tenantId;
    const list = JSON.parse((await admin(`/_sim/client-checks?tenantId=${tenantId}`)).text) as { items: Array<Record<string, any>> };
    expect(list.items).toHaveLength(1);
    const run = list.items[0]!;
    expect(run).toMatchObject({ tenantId, scenario: 'steady', status: 'completed', verdict: certificate.certified ? 'CERTIFIED' : 'NOT CERTIFIED', totals: certificate.totals, startedAt: certificate.startedAt, finishedAt: certificate.finishedAt });
    expect(run.command).toBe(`${process.execPath} scripts/examples/bad/good.mjs`);
    expect(run.rules).toEqual(certificate.rules.map((r) => ({ id: r.id, level: r.level, verdict: r.runs[0]!.verdict })));
    // Registered before the client's first request, completed after its last: the request log's window.
    const requests = certificate.runs[0]!.requests.map((r) => Date.parse(r.at));
    expect(requests.length).toBeGreaterThan(0);
    expect(Date.parse(run.registeredAt)).toBeLessThanOrEqual(Math.min(...requests));
    expect(Date.parse(run.completedAt)).toBeGreaterThanOrEqual(Math.max(...requests));
    const report = await admin(`/_sim/client-checks/${run.id}/report`);
    expect([report.status, report.type]).toEqual([200, 'text/html; charset=utf-8']);
    expect(report.text).toBe(renderClientHtml(certificate));
  }, 300_000);

  it('still certifies against a sandbox without the route, and says so once', async () => {
    const before = JSON.parse((await admin('/_sim/client-checks')).text).items.length;
    const notes: string[] = [];
    const certificate = await good(proxyUrl, notes);
    expect(certificate.certified, JSON.stringify(certificate.totals)).toBe(true);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('does not record client checks');
    expect(JSON.parse((await admin('/_sim/client-checks')).text).items).toHaveLength(before);
  }, 300_000);
});

describe('the check recorder', () => {
  const certificate = (scenarios: string[]): Certificate => ({
    tool: 'tfas-certify-client',
    baseUrl: 'http://sandbox',
    command: ['node', 'client.js'],
    scenario: 'all',
    startedAt: '2026-11-27T10:00:00.000Z',
    finishedAt: '2026-11-27T10:03:00.000Z',
    certified: false,
    totals: { passed: 1, failed: 1, warnings: 0, notExercised: 0 },
    rules: [{ id: 'token.reused', title: '', spec: 'spec 5.1', sentence: '', level: 'required', how: '', verdict: 'failed', runs: scenarios.map((scenario, i) => ({ scenario, verdict: i === 0 ? 'failed' : 'passed', evidence: [], failures: [] })) }],
    runs: [],
  });

  it('says once that an older sandbox does not record, over scenarios registering at once, and completes nothing', async () => {
    const completed: string[] = [];
    const notes: string[] = [];
    const recorder = checkRecorder(
      {
        registerClientCheck: async () => {
          throw new RouteMissing('POST /_sim/client-checks: 404');
        },
        completeClientCheck: async (runId) => (completed.push(runId), {} as never),
      },
      { command: ['node', 'client.js'], startedAt: '2026-11-27T10:00:00.000Z', say: (line) => notes.push(line) },
    );
    await Promise.all(['steady', 'throttled', 'flaky', 'webhooks'].map((s, i) => recorder.register(s, `tenant-${i}`)));
    await recorder.complete(certificate(['steady', 'throttled', 'flaky', 'webhooks']), '<html></html>');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/does not record client checks/);
    expect(completed).toEqual([]);
  });

  it("completes each run with the certificate's verdict and its own scenario's rule verdicts, without a report longer than the cap", async () => {
    const registered: ClientCheckRegistration[] = [];
    const completions = new Map<string, ClientCheckCompletion>();
    const notes: string[] = [];
    const recorder = checkRecorder(
      {
        registerClientCheck: async (registration) => (registered.push(registration), { id: `run-${registration.scenario}` } as never),
        completeClientCheck: async (runId, completion) => (completions.set(runId, completion), {} as never),
      },
      { command: ['node', 'x'.repeat(600)], startedAt: '2026-11-27T10:00:00.000Z', say: (line) => notes.push(line) },
    );
    await recorder.register('steady', 'tenant-a');
    await recorder.register('flaky', 'tenant-b');
    expect(registered.map((r) => [r.scenario, r.tenantId, r.command.length])).toEqual([['steady', 'tenant-a', 500], ['flaky', 'tenant-b', 500]]);
    expect(registered[0]!.certificationId).toBe(registered[1]!.certificationId);

    await recorder.complete(certificate(['steady', 'flaky']), 'x'.repeat(REPORT_MAX_CHARS + 1));
    expect(completions.get('run-steady')).toMatchObject({ verdict: 'NOT CERTIFIED', reportHtml: null, rules: [{ id: 'token.reused', level: 'required', verdict: 'failed' }] });
    expect(completions.get('run-flaky')!.rules).toEqual([{ id: 'token.reused', level: 'required', verdict: 'passed' }]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/longer than the sandbox keeps/);
  });

  it("caps the report at the control contract's maxLength", () => {
    const doc = loadContract('sandbox-control') as unknown as { components: { schemas: Record<string, { properties: Record<string, { maxLength?: number }> }> } };
    expect(doc.components.schemas.ClientCheckCompletion!.properties.reportHtml!.maxLength).toBe(REPORT_MAX_CHARS);
  });
});
