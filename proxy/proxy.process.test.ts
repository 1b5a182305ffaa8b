// The validating proxy against a started sandbox (issue 29 item 3): clean exchanges give no violation, each
// response defect switched on through the control API is caught, a client's malformed request is caught,
// and the CLI writes the suite's reports when it is stopped.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractForProfile, loadTargetContract } from '../conformance/harness/contract.js';
import { startTestTarget, type TestTarget } from '../conformance/testing/simulator.js';
import { startValidatingProxy, type ValidatingProxy, type Violation } from './proxy.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MISSING_JOB = '0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c';
const dir = mkdtempSync(path.join(os.tmpdir(), 'proxy-test-'));

let target: TestTarget;
let proxy: ValidatingProxy;
let bearer: string;

beforeAll(async () => {
  target = await startTestTarget({ label: 'proxy-test' });
  // Our own sandbox: held to all of the contract, as the suite's simulator profile holds it.
  proxy = await startValidatingProxy({ upstream: target.url, contract: contractForProfile(loadTargetContract('v1.3.0'), 'simulator') });
  const token = await fetch(`${proxy.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': target.apiKey } });
  bearer = ((await token.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await proxy?.close();
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

const authorized = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${bearer}`, ...extra });

/** Requests through the proxy, answering the violations they added. */
async function violationsOf(send: () => Promise<unknown>): Promise<Violation[]> {
  const before = proxy.violations().length;
  await send();
  return proxy.violations().slice(before);
}

const through = async (pathAndQuery: string, init: RequestInit = {}) => {
  const res = await fetch(`${proxy.url}${pathAndQuery}`, init);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

function screeningForm(fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.set('file', new Blob([readFileSync(path.join(ROOT, 'fixtures', 'samples', 'sima-screening.xlsx'))]), 'sima-screening.xlsx');
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

describe('the validating proxy (proxy.ts) in front of a started sandbox', () => {
  it('forwards requests and answers unchanged, and finds no violation in exchanges that conform', async () => {
    const exchangesBefore = proxy.exchanges().length;
    const found = await violationsOf(async () => {
      const viaProxy = await through('/api/jobs?limit=5', { headers: authorized() });
      const direct = await fetch(`${target.url}/api/jobs?limit=5`, { headers: authorized() });
      expect(viaProxy).toEqual({ status: direct.status, type: direct.headers.get('content-type'), text: await direct.text() });
      expect((await through(`/api/jobs/${MISSING_JOB}`, { headers: authorized() })).status).toBe(404);
      expect((await through('/api/public/billing/setup-session', { method: 'POST', headers: authorized({ 'content-type': 'application/json' }), body: '{}' })).status).toBe(201);
      expect((await through('/api/upload', { method: 'POST', headers: authorized(), body: screeningForm({ screeningAuthority: 'US' }) })).status).toBe(202);
    });
    expect(found.map((v) => v.message)).toEqual([]);
    // The token exchange of beforeAll went through the proxy too: nothing was found in it either.
    expect(proxy.violations()).toEqual([]);
    expect(exchangesBefore).toBe(1);
    expect(proxy.exchanges().length - exchangesBefore).toBe(4);
    expect(proxy.exchanges().at(-1)?.request.body).toBe('screeningAuthority=US&file=<file sima-screening.xlsx>');
  });

  it('finds no violation in the same exchanges when it holds them only to what the spec fixes (the default profile)', async () => {
    const specOnly = await startValidatingProxy({ upstream: target.url, contract: contractForProfile(loadTargetContract('v1.3.0'), 'sandbox') });
    try {
      const via = (p: string, init: RequestInit = {}) => fetch(`${specOnly.url}${p}`, init).then((r) => r.status);
      expect(await via('/api/jobs?limit=5', { headers: authorized() })).toBe(200);
      expect(await via(`/api/jobs/${MISSING_JOB}`, { headers: authorized() })).toBe(404);
      expect(await via('/api/public/billing/setup-session', { method: 'POST', headers: authorized({ 'content-type': 'application/json' }), body: '{}' })).toBe(201);
      expect(await via('/api/upload', { method: 'POST', headers: authorized(), body: screeningForm({ screeningAuthority: 'US' }) })).toBe(202);
      expect(specOnly.exchanges()).toHaveLength(4);
      expect(specOnly.violations().map((v) => v.message)).toEqual([]);
    } finally {
      await specOnly.close();
    }
  });

  // Response defects of the catalogue (simulator/**/*.defects.ts) that change only what is sent: each is
  // switched on through the control API, the request that shows it sent, and the violation expected.
  const RESPONSE_DEFECTS: Array<{ defect: string; send: () => Promise<unknown>; rule: string; operationId: string; says: RegExp }> = [
    { defect: 'error.lost-envelope', send: () => through(`/api/jobs/${MISSING_JOB}`, { headers: authorized() }), rule: 'error-envelope', operationId: 'getJob', says: /not the error envelope/ },
    { defect: 'error.wrong-code', send: () => through(`/api/jobs/${MISSING_JOB}`, { headers: authorized() }), rule: 'response-conformance', operationId: 'getJob', says: /404 schema/ },
    { defect: 'jobs.list-count-missing', send: () => through('/api/jobs', { headers: authorized() }), rule: 'response-conformance', operationId: 'listJobs', says: /required property 'count'/ },
    { defect: 'billing.wrong-content-type', send: () => through('/api/public/billing/setup-session', { method: 'POST', headers: authorized({ 'content-type': 'application/json' }), body: '{}' }), rule: 'response-conformance', operationId: 'createBillingSetupSession', says: /content type text\/plain is not documented/ },
  ];
  for (const { defect, send, rule, operationId, says } of RESPONSE_DEFECTS) {
    it(`catches the response defect ${defect} as ${rule} of ${operationId}`, async () => {
      const found = await target.withDefects([defect], () => violationsOf(send));
      expect(found.length, 'the defect is caught').toBeGreaterThan(0);
      expect(found.find((v) => v.rule === rule && v.operationId === operationId && says.test(v.message)), found.map((v) => `${v.rule} ${v.message}`).join('\n')).toBeDefined();
      // The same request with the defect off conforms again: what was caught was the defect.
      expect(await violationsOf(send)).toEqual([]);
    });
  }

  it("catches a client's malformed requests: no credential, a query value out of range, a multipart field outside its enum", async () => {
    const noCredential = await violationsOf(() => through('/api/jobs'));
    expect(noCredential.map((v) => [v.rule, v.message])).toEqual([['request-conformance', "listJobs: no credential of the operation's security requirements (integrationBearer)"]]);
    const outOfRange = await violationsOf(() => through('/api/jobs?limit=0', { headers: authorized() }));
    expect(outOfRange.map((v) => v.rule)).toEqual(['request-conformance']);
    expect(outOfRange[0].message).toMatch(/^listJobs: query parameter limit: /);
    const badField = await violationsOf(() => through('/api/upload', { method: 'POST', headers: authorized(), body: screeningForm({ screeningAuthority: 'XX' }) }));
    expect(badField.map((v) => v.rule)).toEqual(['request-conformance']);
    expect(badField[0].message).toMatch(/^uploadSimaScreeningFile: body does not match the request schema: .*screeningAuthority/);
  });

  it('files a path of no operation as undocumented-operation, and serves every violation with its exchange at /_proxy/violations, secrets masked', async () => {
    const undocumented = await violationsOf(() => through('/api/nothing-here', { headers: authorized() }));
    expect(undocumented.map((v) => v.rule)).toEqual(['undocumented-operation']);
    const res = await fetch(`${proxy.url}/_proxy/violations`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const served = (await res.json()) as { upstream: string; contract: string; exchanges: number; violations: Array<Violation & { exchange: { request: { headers: Record<string, string> } } }> };
    expect(served).toMatchObject({ upstream: target.url, contract: 'v1.3.0', exchanges: proxy.exchanges().length });
    expect(served.violations.map((v) => v.id)).toEqual(proxy.violations().map((v) => v.id));
    const last = served.violations.at(-1)!;
    expect(last).toMatchObject({ rule: 'undocumented-operation', exchange: { request: { method: 'GET', url: '/api/nothing-here' }, response: { status: 404 } } });
    expect(last.exchange.request.headers.authorization).not.toContain(bearer);
  });

  it("holds an unknown route's error answer to the envelope too (error.lost-envelope on: caught; off: only undocumented-operation)", async () => {
    const send = () => through('/api/nothing-here', { headers: authorized() });
    const bare = await target.withDefects(['error.lost-envelope'], () => violationsOf(send));
    expect(bare.map((v) => v.rule)).toEqual(['undocumented-operation', 'error-envelope']);
    expect(bare[1].message).toMatch(/GET \/api\/nothing-here: the 404 body is not the error envelope/);
    expect((await violationsOf(send)).map((v) => v.rule)).toEqual(['undocumented-operation']);
  });
});

describe('tfas proxy (proxy/cli.ts)', () => {
  it('prints each violation with its exchange, and on SIGTERM writes the HTML, JSON and JUnit reports and exits 1', async () => {
    const reportDir = path.join(dir, 'reports');
    const child = spawn(process.execPath, ['bin/tfas.js', 'proxy', '--upstream', target.url, '--port', '0', '--profile', 'simulator', '--report-dir', reportDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let url: string | undefined;
      for (const deadline = Date.now() + 120_000; !(url = /validating proxy (http:\S+)/.exec(out)?.[1]); await new Promise((r) => setTimeout(r, 50))) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the proxy did not start:\n${out}`);
      }
      expect((await fetch(`${url}/api/jobs`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(200);
      expect((await fetch(`${url}/api/jobs`)).status).toBe(401);
      for (const deadline = Date.now() + 10_000; !out.includes('VIOLATION #1'); await new Promise((r) => setTimeout(r, 50))) {
        if (Date.now() > deadline) throw new Error(`no violation printed:\n${out}`);
      }
      expect(out).toContain("VIOLATION #1 request-conformance: listJobs: no credential of the operation's security requirements (integrationBearer)\n  GET /api/jobs -> 401 ");
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(1);
    expect(out).toMatch(/2 exchanges, 1 violations; reports: /);
    for (const file of ['junit.xml', 'report.json', 'report.html']) expect(existsSync(path.join(reportDir, file)), file).toBe(true);
    const report = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8')) as { totals: { passed: number; failed: number }; results: Array<{ id: string; verdict: string; requests: number; failures: Array<{ rule: string }> }> };
    expect(report.results.find((r) => r.id === 'proxy.listJobs')).toMatchObject({ verdict: 'failed', requests: 2, failures: [{ rule: 'request-conformance' }] });
    expect(report.totals).toMatchObject({ passed: 0, failed: 1 });
    expect(readFileSync(path.join(reportDir, 'junit.xml'), 'utf8')).toContain('name="proxy.listJobs"');
  });
});
