// The sandbox console in a real headless Chromium (Debian's, through playwright-core): a simulator process
// with some activity (a SIMA batch that completes and signs a webhook to a local receiver, a tenant whose
// name is markup), then the page: sign in with the admin token and read what it shows, advance the clock;
// a client check recorded on a tenant of its own: listed, its report opened, the request log narrowed to it.
// Skips locally without a chromium (scripts/browser/chromium.ts says why); fails under CI=true.
// UPDATE_SCREENSHOTS=1 rewrites simulator/console/console.png (the README's screenshot).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../contracts/lib/prism.js';
import { launchChromium, lookupChromium } from '../../scripts/browser/chromium.js';
import { startSimulatorProcess, type SimulatorProcess } from '../testing/process.js';
import { CONSOLE_DIR, CONSOLE_PATH } from './routes.js';
import { consoleRequests, until } from './console.testing.js';

const chromium = lookupChromium();
const ADMIN = 'console-test-admin-token';
const KEY = 'tfk_console_test_key';
const HOSTILE_NAME = '<img src=x onerror="window.__injected=1">Acme & Co';

let sim: SimulatorProcess | undefined;
let browser: Browser | undefined;
let receiver: Server | undefined;
let dir: string | undefined;
const received: string[] = [];
let jobId = '';
let sessionId = '';

const { api, upload } = consoleRequests(() => sim!.url);

describe.skipIf(chromium.skipReason !== null)(`the sandbox console in Chromium${chromium.skipReason ? ` (skipped: ${chromium.skipReason})` : ''}`, () => {
  beforeAll(async () => {
    const port = await freePort();
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(String(req.headers['x-svc-signature']));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(port, '127.0.0.1', resolve));
    dir = mkdtempSync(path.join(os.tmpdir(), 'sim-console-'));
    [sim, browser] = await Promise.all([
      startSimulatorProcess({
        SIM_DB: path.join(dir, 'store.mdb'),
        SIM_ADMIN_TOKEN: ADMIN,
        SIM_INTEGRATION_KEY: KEY,
        SIM_WEBHOOK_ALLOW_TARGETS: `127.0.0.1:${port}`,
        SIM_JOB_START_DELAY_MS: '50',
        SIM_JOB_PROCESSING_MS: '300',
      }),
      launchChromium(chromium),
    ]);
    // Activity: a SIMA batch over the sample catalog with a signed webhook to the receiver, and a tenant
    // whose name is markup (the page must show it as text).
    const token = (await api('POST', '/api/auth/token/integration', { headers: { 'x-api-key': KEY } })).body.access_token;
    const batch = await api('POST', '/api/sima/batch', { token, body: { skus: null, webhookUrl: `http://127.0.0.1:${port}/hooks`, webhookSecret: 'whsec_console_test_secret_0123456789' } });
    expect(batch.status).toBe(202);
    jobId = batch.body.jobId ?? batch.body.id;
    // A feed with non-blocking issues (workflow B) and a carrier invoice file against an agreement (workflow C).
    const feed = await upload('/api/trade/feeds/upload', token, 'fixtures/trade/feed-non-blocking.csv', { originCountry: 'CN', defaultDestinationCountry: 'CA' });
    expect(feed.status).toBe(202);
    expect((await upload('/api/carrier/agreements/upload', token, 'fixtures/freight/agreement-fedex.csv')).status).toBe(202);
    expect((await upload('/api/ship/upload', token, 'fixtures/freight/shipments-fedex.csv')).status).toBe(202);
    await until('every job to end', async () => {
      const { jobs } = (await api('GET', '/api/jobs', { token })).body;
      return jobs.length >= 4 && jobs.every((j: { status: string }) => j.status === 'COMPLETED' || j.status === 'FAILED') ? true : undefined;
    }, 15_000);
    expect((await api('GET', `/api/jobs/${jobId}`, { token })).body.status).toBe('COMPLETED');
    sessionId = feed.body.sessionId;
    await until('the webhook', async () => (received.length ? true : undefined));
    await until('the attempt to be recorded', async () => ((await api('GET', '/_sim/webhooks/deliveries', { token: ADMIN })).body.deliveries[0]?.attempts.length ? true : undefined));
    expect((await api('POST', '/_sim/tenants', { token: ADMIN, body: { name: HOSTILE_NAME } })).status).toBe(201);
  }, 40_000);

  afterAll(async () => {
    await browser?.close();
    await sim?.kill();
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the job, its delivery attempt, the request log and moves the clock when asked, after the admin token is entered', async () => {
    const page = await browser!.newPage({ viewport: { width: 1360, height: 1000 } });
    // Each wait well inside the test's bound, so a failure names the step rather than the test timing out.
    page.setDefaultTimeout(8_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Console errors too: the one expected is Chromium's note of the wrong token's 401 below.
    page.on('console', (message) => {
      if (message.type() === 'error' && !(message.location().url.endsWith('/_sim/status') && message.text().includes('401'))) pageErrors.push(message.text());
    });
    const outside: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(sim!.url)) outside.push(req.url());
    });
    await page.goto(`${sim!.url}${CONSOLE_PATH}`);

    // Nothing but the sign-in form without the token; a wrong token is refused.
    expect(await page.isVisible('#main')).toBe(false);
    await page.fill('#admin-token', 'not-the-token');
    await page.click('#signin-form button');
    await page.waitForSelector('#signin-error:has-text("not the admin token")');

    await page.fill('#admin-token', ADMIN);
    await page.click('#signin-form button');
    await page.waitForSelector('#main', { state: 'visible' });

    // Jobs: the SIMA batch with its state and progress.
    const jobRow = page.locator('#panel-public-jobs tr', { hasText: jobId.slice(0, 8) });
    await jobRow.waitFor();
    expect(await jobRow.textContent()).toContain('COMPLETED');
    expect(await jobRow.textContent()).toContain('100 %');
    // Its state history from the transition log (or, while the log is not served, a clear "not available").
    const transitionsServed = (await api('GET', '/_sim/transitions?limit=1', { token: ADMIN })).status === 200;
    await jobRow.locator('td', { hasText: transitionsServed ? 'PROCESSING → COMPLETED' : 'not available' }).waitFor();

    // Webhook deliveries: the attempt with its status, latency and the signature the receiver got.
    const delivery = page.locator('#panel-deliveries .delivery').first();
    await delivery.waitFor();
    const deliveryText = (await delivery.textContent()) ?? '';
    expect(deliveryText).toContain('job.completed');
    expect(deliveryText).toContain('204');
    expect(deliveryText).toMatch(/\d+ ms/);
    expect(await delivery.locator('code.sig').getAttribute('title')).toBe(received[0]);

    // SIMA outcomes with exposure.
    await page.locator('#panel-public-sima .summary').waitFor();
    expect(await page.locator('#panel-public-sima tbody tr').count()).toBeGreaterThan(0);

    // Feed sessions with their issues, findings of the invoice file.
    const session = page.locator('#panel-public-feeds .card', { hasText: sessionId.slice(0, 8) });
    await session.waitFor();
    expect(await session.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('#panel-public-findings tbody tr').count()).toBeGreaterThan(0);

    // The request log: the batch request (or, while the log is not served, a clear "not available").
    const requestsServed = (await api('GET', '/_sim/requests?limit=1', { token: ADMIN })).status === 200;
    if (requestsServed) await page.locator('#panel-requests tr', { hasText: '/api/sima/batch' }).first().waitFor();
    else await page.locator('#panel-requests', { hasText: 'not available' }).waitFor();

    // The tenant named with markup is listed as text, and its markup never ran.
    const options = await page.locator('#tenant-picker option').allTextContents();
    expect(options.some((o) => o.startsWith(HOSTILE_NAME))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();

    // The virtual clock: advance this tenant's by two hours and see it move.
    const tenantClock = page.locator('#panel-clock p', { hasText: 'tenant' }).locator('.clock-now');
    const before = Date.parse(`${(await tenantClock.textContent())!.replace(' ', 'T')}Z`);
    await page.fill('#advance-seconds', '7200');
    await page.click('#advance');
    await until('the clock to move', async () => {
      const now = Date.parse(`${(await tenantClock.textContent())!.replace(' ', 'T')}Z`);
      return now - before >= 7200_000 ? true : undefined;
    });
    const clock = (await api('GET', `/_sim/clock?tenantId=${(await api('GET', '/_sim/tenants', { token: ADMIN })).body.tenants[0].id}`, { token: ADMIN })).body;
    expect(clock.offsetSeconds).toBeGreaterThanOrEqual(7200);

    // The top of the page (clock, faults, jobs, deliveries, request log, SIMA): what the README shows.
    const shot = await page.screenshot({ fullPage: true, clip: { x: 0, y: 0, width: 1360, height: 1400 } });
    expect(shot.length).toBeGreaterThan(10_000);
    if (process.env.UPDATE_SCREENSHOTS === '1') writeFileSync(path.join(CONSOLE_DIR, 'console.png'), shot);

    expect(pageErrors).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  }, 25_000);

  it("lists a completed client check with its verdict, opens its report, and narrows the request log to the run's tenant and time window", async () => {
    // A client check as npm run certify:client records it (client-cert/check-record.ts), on a tenant of its
    // own: one request before the run is registered, one during it, one after it is completed.
    const tenant = (await api('POST', '/_sim/tenants', { token: ADMIN, body: { name: 'Client check tenant' } })).body;
    const token = (await api('POST', '/api/auth/token/integration', { headers: { 'x-api-key': tenant.integrationKey } })).body.access_token;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 30));
    await pause();
    const run = await api('POST', '/_sim/client-checks', { token: ADMIN, body: { tenantId: tenant.tenantId, scenario: 'steady', command: 'node client.js', startedAt: new Date().toISOString(), certificationId: null } });
    expect(run.status).toBe(201);
    expect((await api('GET', '/api/ship/findings', { token })).status).toBe(200);
    const report = `<!doctype html><html><head><style>#verdict{color:rgb(21, 128, 61)}</style></head><body><h1 id="verdict">CERTIFIED</h1><p>Tenant <code>${tenant.tenantId}</code></p></body></html>`;
    const totals = { passed: 6, failed: 0, warnings: 1, notExercised: 2 };
    const completed = await api('PUT', `/_sim/client-checks/${run.body.id}/completion`, { token: ADMIN, body: { verdict: 'CERTIFIED', totals, rules: [], finishedAt: new Date().toISOString(), reportHtml: report } });
    expect(completed.status).toBe(200);
    await pause();
    expect((await api('GET', '/api/jobs', { token })).status).toBe(200);

    const page = await browser!.newPage({ viewport: { width: 1360, height: 1000 } });
    page.setDefaultTimeout(8_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()));
    await page.goto(`${sim!.url}${CONSOLE_PATH}`);
    await page.fill('#admin-token', ADMIN);
    await page.click('#signin-form button');
    await page.waitForSelector('#main', { state: 'visible' });

    // The run: tenant, scenario, verdict, its rule totals, and times whose clock is named.
    const row = page.locator('#panel-client-checks tbody tr', { hasText: tenant.tenantId.slice(0, 8) });
    await row.waitFor();
    const rowText = (await row.textContent()) ?? '';
    for (const text of ['steady', 'CERTIFIED', '6 passed · 0 failed · 1 warning · 2 not exercised', 'node client.js']) expect(rowText).toContain(text);
    expect(await page.locator('#panel-client-checks th').allTextContents()).toContain('registered (wall clock, UTC)');

    // Unfiltered, the request log shows the picked (default) tenant's requests.
    const paths = () => page.locator('#panel-requests tbody tr td:nth-child(4)').allTextContents();
    await page.locator('#panel-requests tr', { hasText: '/api/sima/batch' }).first().waitFor();

    // "show its requests": a chip, and only the run tenant's request made between registration and completion.
    await row.locator('button.show-requests').click();
    const chip = page.locator('#requests-filter-chip');
    await chip.waitFor();
    expect(await chip.textContent()).toContain('client check steady');
    expect(await chip.textContent()).toContain(tenant.tenantId.slice(0, 8));
    await until('the request log to narrow to the run', async () => ((await paths()).join() === '/api/ship/findings' ? true : undefined));
    expect(await page.isDisabled('#requests-tenant-only')).toBe(true);

    // The report link opens the viewer, which shows the report styled as it styles itself.
    const [viewer] = await Promise.all([page.context().waitForEvent('page'), row.locator('a.report-link').click()]);
    const viewerErrors: string[] = [];
    viewer.on('pageerror', (error) => viewerErrors.push(error.message));
    viewer.on('console', (message) => message.type() === 'error' && viewerErrors.push(message.text()));
    const frame = await (await viewer.waitForSelector('#report-frame')).contentFrame();
    const verdict = await frame!.waitForSelector('#verdict');
    expect(await verdict.textContent()).toBe('CERTIFIED');
    expect(await verdict.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(21, 128, 61)');
    expect(viewerErrors).toEqual([]);
    await viewer.close();

    // Removing the chip gives the request log back its tenant filter.
    await chip.locator('button.chip-remove').click();
    await chip.waitFor({ state: 'detached' });
    await page.locator('#panel-requests tr', { hasText: '/api/sima/batch' }).first().waitFor();
    expect(await page.isDisabled('#requests-tenant-only')).toBe(false);

    expect(pageErrors).toEqual([]);
    await page.close();
  }, 25_000);
});
