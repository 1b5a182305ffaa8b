// The console's actions (issue 29 items 6 and 7) in a real headless Chromium against a started sandbox: each action
// is performed by clicking in the page, its outcome is read in the page, and its effect is checked through
// the control or public API. Then the lists ("n of N", paging), a request log entry staying open across
// refreshes, the page at 420 px, and, last, the reset. Zero console errors, except the one refusal this
// test provokes on purpose (its failed request is logged by Chromium, and only that one is allowed).
// Skips locally without a chromium (scripts/browser/chromium.ts says why); fails under CI=true.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, lookupChromium } from '../../scripts/browser/chromium.js';
import { startSimulatorProcess, type SimulatorProcess } from '../testing/process.js';
import { CONSOLE_PATH } from './routes.js';
import { consoleRequests, until } from './console.testing.js';
import { webhookReceiver } from '../control/defects.testing.js';
import { verifySignature } from '../domains/webhooks/webhook.testing.js';

const chromium = lookupChromium();
const ADMIN = 'console-actions-admin-token';
const KEY = 'tfk_console_actions_key';
const WEBHOOK_SECRET = 'console-actions-webhook-secret';

let sim: SimulatorProcess | undefined;
let browser: Browser | undefined;
let dir: string | undefined;
let defaultTenant = '';
let token = '';
let sessionId = '';
let submissionId = '';

const requests = consoleRequests(() => sim!.url);
const api = requests.api;
const admin = (method: string, url: string, body?: unknown) => api(method, url, { token: ADMIN, body });
/** An upload as the default tenant's client (its token, read when called). */
const upload = (url: string, fixture: string, fields: Record<string, string> = {}) => requests.upload(url, token, fixture, fields);

/** A signed-in console page that records every console error and uncaught page error. */
async function openConsole(width = 1360, permissions: string[] = []) {
  const page = await browser!.newPage({ viewport: { width, height: 900 }, permissions });
  // Each wait inside the test's bound, so a failure names its step; generous, as an action waits for the refresh it starts on a loaded machine.
  page.setDefaultTimeout(15_000);
  const errors: Array<{ text: string; url: string }> = [];
  page.on('pageerror', (error) => errors.push({ text: error.message, url: '' }));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push({ text: message.text(), url: message.location().url });
  });
  await page.goto(`${sim!.url}${CONSOLE_PATH}`);
  await page.fill('#admin-token', ADMIN);
  await page.click('#signin-form button');
  await page.waitForSelector('#main', { state: 'visible' });
  await page.locator('#panel-public-jobs[data-loaded]').waitFor();
  return { page, errors };
}

/** The outcome line after the action `label` finished: its text, ok or refused. */
async function outcomeOf(page: Page, label: string | RegExp) {
  const line = page.locator('#action-outcome:not([data-result="busy"])', { hasText: label });
  await line.waitFor();
  return { result: await line.getAttribute('data-result'), text: (await line.textContent()) ?? '' };
}

const pick = (page: Page, tenantId: string) => page.selectOption('#tenant-picker', tenantId);

describe.skipIf(chromium.skipReason !== null)(`the console's actions in Chromium${chromium.skipReason ? ` (skipped: ${chromium.skipReason})` : ''}`, () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sim-console-actions-'));
    [sim, browser] = await Promise.all([
      startSimulatorProcess({ SIM_DB: path.join(dir, 'store.mdb'), SIM_ADMIN_TOKEN: ADMIN, SIM_INTEGRATION_KEY: KEY, SIM_JOB_START_DELAY_MS: '20', SIM_JOB_PROCESSING_MS: '100' }),
      launchChromium(chromium),
    ]);
    token = (await api('POST', '/api/auth/token/integration', { headers: { 'x-api-key': KEY } })).body.access_token;
    defaultTenant = (await admin('GET', '/_sim/tenants')).body.tenants[0].id;
    // A SIMA batch (results with an OPEN review workflow), a feed with non-blocking issues (PREVIEW_BLOCKED),
    // and a carrier invoice file whose findings, one disputed, make a claim submission.
    expect((await api('POST', '/api/sima/batch', { token, body: { skus: null } })).status).toBe(202);
    const feed = await upload('/api/trade/feeds/upload', 'fixtures/trade/feed-non-blocking.csv', { originCountry: 'CN', defaultDestinationCountry: 'CA' });
    expect(feed.status).toBe(202);
    sessionId = feed.body.sessionId;
    expect((await upload('/api/carrier/agreements/upload', 'fixtures/freight/agreement-fedex.csv')).status).toBe(202);
    expect((await upload('/api/ship/upload', 'fixtures/freight/shipments-fedex.csv')).status).toBe(202);
    // More jobs than a page holds (the list pages by 10): eight more SIMA batches.
    for (let i = 0; i < 8; i++) expect((await api('POST', '/api/sima/batch', { token, body: { skus: null } })).status).toBe(202);
    await until('every job to end', async () => {
      const { jobs } = (await api('GET', '/api/jobs?limit=100', { token })).body;
      return jobs.length >= 12 && jobs.every((j: { status: string }) => j.status === 'COMPLETED' || j.status === 'FAILED') ? true : undefined;
    }, 20_000);
    const finding = (await api('GET', '/api/ship/findings?limit=1', { token })).body.findings[0];
    expect((await api('POST', `/api/ship/findings/${finding.id}/dispute`, { token })).status).toBe(200);
    const created = await api('POST', '/api/ship/claims/submissions', { token, body: { carrier: finding.carrier, findingIds: [finding.id] } });
    expect(created.status).toBe(201);
    submissionId = created.body.submission.id;
    expect((await api('GET', `/api/trade/feeds/${sessionId}`, { token })).body.status).toBe('PREVIEW_BLOCKED');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sim?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creates a tenant and an integration key, each key shown once and working, and shows a refusal with the error envelope message', async () => {
    const { page, errors } = await openConsole(1360, ['clipboard-read', 'clipboard-write']);

    await page.fill('#new-tenant-name', 'Made in the console');
    await page.click('#create-tenant');
    const made = await outcomeOf(page, 'create tenant Made in the console');
    expect(made.result).toBe('ok');
    const key = (await page.locator('#secret-once').textContent())!;
    // "copy" puts it on the clipboard.
    await page.click('#copy-secret');
    await page.locator('#action-outcome', { hasText: 'copied.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const listed = (await admin('GET', '/_sim/tenants')).body.tenants.find((t: { name: string }) => t.name === 'Made in the console');
    expect(listed).toBeDefined();
    expect(made.text).toContain(listed.id);
    // The key shown works, for that tenant; the picker moved to it.
    expect((await api('POST', '/api/auth/token/integration', { headers: { 'x-api-key': key } })).status).toBe(200);
    await until('the picker to pick the new tenant', async () => ((await page.inputValue('#tenant-picker')) === listed.id ? true : undefined));

    await page.click('#create-key');
    const added = await outcomeOf(page, 'add an integration key to Made in the console');
    expect(added.result).toBe('ok');
    const second = (await page.locator('#secret-once').textContent())!;
    expect(second).not.toBe(key);
    const exchanged = await api('POST', '/api/auth/token/integration', { headers: { 'x-api-key': second } });
    expect(exchanged.status).toBe(200);
    // Shown once: the next action's outcome replaces it, and nothing in the page's storage holds it.
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }))).not.toContain(second);

    // A refusal: a name longer than the contract allows (the field's maxlength taken off) is 400, and the
    // page says the envelope's code and message.
    await page.evaluate(() => document.getElementById('new-tenant-name')!.removeAttribute('maxlength'));
    await page.fill('#new-tenant-name', 'x'.repeat(201));
    await page.click('#create-tenant');
    const refused = await outcomeOf(page, /refused/);
    expect(refused.result).toBe('error');
    expect(refused.text).toContain('400 INVALID_REQUEST');
    expect(await page.locator('#secret-once').count()).toBe(0);

    // The only console error: Chromium's note of that refused request.
    expect(errors.filter((e) => !(e.url.endsWith('/_sim/tenants') && e.text.includes('400')))).toEqual([]);
    await page.close();
  }, 60_000);

  it('switches defects sandbox-wide and for the tenant, and webhook chaos, on and off', async () => {
    const { page, errors } = await openConsole();
    await pick(page, defaultTenant);
    await page.locator('#panel-faults select.defect-pick[data-scope="sandbox"]').waitFor();

    await page.selectOption('#panel-faults select.defect-pick[data-scope="sandbox"]', 'limits.missing-retry-after');
    await page.click('#panel-faults button.defect-on[data-scope="sandbox"]');
    expect((await outcomeOf(page, 'switch on limits.missing-retry-after sandbox-wide')).result).toBe('ok');
    expect((await admin('GET', '/_sim/defects')).body.active).toEqual(['limits.missing-retry-after']);
    await page.click('#panel-faults ul[data-scope="sandbox"] button.defect-off[data-defect="limits.missing-retry-after"]');
    expect((await outcomeOf(page, 'switch off limits.missing-retry-after sandbox-wide')).result).toBe('ok');
    expect((await admin('GET', '/_sim/defects')).body.active).toEqual([]);

    await page.locator('#panel-faults select.defect-pick[data-scope="tenant"]').waitFor();
    await page.selectOption('#panel-faults select.defect-pick[data-scope="tenant"]', 'limits.missing-retry-after');
    await page.click('#panel-faults button.defect-on[data-scope="tenant"]');
    expect((await outcomeOf(page, 'switch on limits.missing-retry-after for this tenant')).result).toBe('ok');
    expect((await admin('GET', `/_sim/tenants/${defaultTenant}/faults`)).body.defects).toEqual(['limits.missing-retry-after']);
    expect((await admin('GET', '/_sim/defects')).body.active).toEqual([]);

    await page.check('#panel-faults input.chaos[data-member="duplicate"]');
    expect((await outcomeOf(page, 'webhook chaos duplicate on')).result).toBe('ok');
    const faults = (await admin('GET', `/_sim/tenants/${defaultTenant}/faults`)).body;
    expect(faults.webhookChaos.duplicate).toBe(true);
    expect(faults.defects).toEqual(['limits.missing-retry-after']); // the other switch kept

    await page.click('#panel-faults ul[data-scope="tenant"] button.defect-off[data-defect="limits.missing-retry-after"]');
    expect((await outcomeOf(page, 'switch off limits.missing-retry-after for this tenant')).result).toBe('ok');
    await page.uncheck('#panel-faults input.chaos[data-member="duplicate"]');
    expect((await outcomeOf(page, 'webhook chaos duplicate off')).result).toBe('ok');
    expect((await admin('GET', `/_sim/tenants/${defaultTenant}/faults`)).body).toMatchObject({ defects: [], webhookChaos: { duplicate: false } });

    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("reviews a SIMA result, acknowledges a feed session's issues and closes a claim submission", async () => {
    const { page, errors } = await openConsole();
    await pick(page, defaultTenant);

    // SIMA: accept an OPEN result, then reopen it.
    const accept = page.locator('#panel-public-sima button.sima-action[data-action="accept"]').first();
    await accept.waitFor();
    const sku = (await accept.getAttribute('data-sku'))!;
    await accept.click();
    expect((await outcomeOf(page, `accept the SIMA result of ${sku}`)).text).toContain(`${sku} is ACCEPTED`);
    const current = async () => (await api('GET', `/api/sima/results?limit=1000`, { token })).body.outcomes.find((r: { sku: string }) => r.sku === sku).workflowStatus;
    expect(await current()).toBe('ACCEPTED');
    const reopen = page.locator(`#panel-public-sima button.sima-action[data-action="reopen"][data-sku="${sku}"]`);
    await reopen.click();
    expect((await outcomeOf(page, `reopen the SIMA result of ${sku}`)).result).toBe('ok');
    expect(await current()).toBe('OPEN');

    // The feed session: its non-blocking issues acknowledged, it is READY.
    const card = page.locator('#panel-public-feeds .card', { hasText: sessionId.slice(0, 8) });
    await card.locator('button.acknowledge').click();
    expect((await outcomeOf(page, `acknowledge the issues of feed session ${sessionId.slice(0, 8)}`)).text).toContain('the session is READY');
    expect((await api('GET', `/api/trade/feeds/${sessionId}`, { token })).body.status).toBe('READY');
    await card.locator('button.acknowledge').waitFor({ state: 'detached' });

    // The claim submission: closed by the operator.
    await page.locator('#panel-public-claims tr', { hasText: submissionId.slice(0, 8) }).locator('button.close-claim').click();
    expect((await outcomeOf(page, `close claim submission ${submissionId.slice(0, 8)}`)).text).toContain('it is CLOSED');
    expect((await api('GET', `/api/ship/claims/submissions/${submissionId}`, { token })).body.submission.status).toBe('CLOSED');

    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("sends a sample webhook event for a job and resends a delivery, each a new delivery reaching the job's webhook signed with its secret", async () => {
    const receiver = await webhookReceiver(204);
    const allowed = (await admin('GET', '/_sim/webhooks/allow-targets')).body.targets as string[];
    try {
      expect((await admin('PUT', '/_sim/webhooks/allow-targets', { targets: [...allowed, receiver.target] })).status).toBe(200);
      // A tenant of its own (the default tenant's lists stay as the other tests count them), and a job of it
      // enqueued with a signed webhook: its own delivery comes first.
      const tenant = (await admin('POST', '/_sim/tenants', { name: 'Webhook samples' })).body;
      const bearer = (await api('POST', '/api/auth/token/integration', { headers: { 'x-api-key': tenant.integrationKey } })).body.access_token;
      const queued = await api('POST', '/api/sima/batch', { token: bearer, body: { skus: null, webhook: { url: receiver.url, secret: WEBHOOK_SECRET } } });
      expect(queued.status).toBe(202);
      const jobId = queued.body.jobId as string;
      await until("the job's own delivery", async () => (receiver.received.length === 1 ? true : undefined), 20_000);

      const { page, errors } = await openConsole();
      await pick(page, tenant.tenantId);
      await page.locator('#panel-public-jobs tr', { hasText: jobId.slice(0, 8) }).locator('button.trigger[data-event="job.failed"]').click();
      const triggered = await outcomeOf(page, `send a sample job.failed for job ${jobId.slice(0, 8)}`);
      expect(triggered.result, triggered.text).toBe('ok');
      await until('the sample', async () => (receiver.received.length === 2 ? true : undefined));
      const sample = receiver.received[1];
      const sampleId = sample.headers['x-svc-delivery-id'] as string;
      expect(triggered.text).toContain(sampleId);
      expect(sample.headers['x-svc-event']).toBe('job.failed');
      expect(verifySignature(WEBHOOK_SECRET, sample.headers, sample.body)).toBe(true);
      expect(JSON.parse(sample.body)).toMatchObject({ id: sampleId, event: 'job.failed', job: { id: jobId, status: 'FAILED' } });

      // Resend, on the sample's card once it is delivered: a new delivery of the same event and job.
      const card = page.locator(`#panel-deliveries .card[data-delivery="${sampleId}"]`);
      await card.locator('button.resend').click();
      const resent = await outcomeOf(page, `resend delivery ${sampleId.slice(0, 8)}`);
      expect(resent.result, resent.text).toBe('ok');
      await until('the redelivery', async () => (receiver.received.length === 3 ? true : undefined));
      const again = receiver.received[2];
      const againId = again.headers['x-svc-delivery-id'] as string;
      expect(againId).not.toBe(sampleId);
      expect(resent.text).toContain(againId);
      expect(verifySignature(WEBHOOK_SECRET, again.headers, again.body)).toBe(true);
      expect(JSON.parse(again.body).job).toEqual(JSON.parse(sample.body).job);
      const listed = (await admin('GET', `/_sim/webhooks/deliveries?jobId=${jobId}`)).body.deliveries as Array<{ id: string; origin: string; redeliveryOf?: string }>;
      expect(listed.map((d) => [d.origin, d.redeliveryOf ?? null])).toEqual([['job', null], ['trigger', null], ['redelivery', sampleId]]);
      await page.locator(`#panel-deliveries .card[data-delivery="${againId}"]`, { hasText: `sends ${sampleId} again` }).waitFor();

      // A job without a webhook: refused, and the page says why.
      const plain = await api('POST', '/api/sima/batch', { token: bearer, body: { skus: null } });
      await page.click('#refresh');
      await page.locator('#panel-public-jobs tr', { hasText: plain.body.jobId.slice(0, 8) }).locator('button.trigger[data-event="job.completed"]').click();
      const refused = await outcomeOf(page, `send a sample job.completed for job ${plain.body.jobId.slice(0, 8)}`);
      expect(refused.result).toBe('error');
      expect(refused.text).toContain('404 NOT_FOUND');
      expect(refused.text).toContain('has a webhook');
      // The only console error: Chromium's note of that refused request.
      expect(errors.filter((e) => !(e.url.endsWith('/_sim/webhooks/trigger') && e.text.includes('404')))).toEqual([]);
      await page.close();
    } finally {
      await admin('PUT', '/_sim/webhooks/allow-targets', { targets: allowed });
      await receiver.close();
    }
  }, 60_000);

  it('says "n of N" on every list and pages, keeps an opened request log entry open across refreshes, and fits 420 px', async () => {
    const { page, errors } = await openConsole();
    await pick(page, defaultTenant);
    for (const panel of ['#panel-public-jobs', '#panel-public-sima', '#panel-public-findings', '#panel-public-claims', '#panel-deliveries', '#panel-requests', '#panel-test-values']) {
      const nav = page.locator(`${panel} nav.pager`).first();
      if (panel === '#panel-deliveries') continue; // no webhook in this sandbox: "no webhook deliveries yet"
      await nav.waitFor();
      expect(await nav.locator('.count').textContent(), panel).toMatch(/^(\d+–\d+|0) of \d+\+?$/);
    }
    // The jobs: more than a page; the next page shows the rows after it, and the count says so.
    const total = (await api('GET', '/api/jobs?limit=1', { token })).body.count;
    expect(total).toBeGreaterThan(10);
    const jobs = page.locator('#panel-public-jobs nav.pager');
    expect(await jobs.locator('.count').textContent()).toBe(`1–10 of ${total}`);
    expect(await page.locator('#panel-public-jobs tbody tr').count()).toBe(10);
    await jobs.locator('button.next').click();
    await page.locator('#panel-public-jobs nav.pager .count', { hasText: `11–${Math.min(20, total)} of ${total}` }).waitFor();
    const second = (await api('GET', '/api/jobs?limit=10&offset=10', { token })).body.jobs.map((j: { id: string }) => j.id.slice(0, 8));
    await page.locator('#panel-public-jobs tbody tr', { hasText: second[0] }).first().waitFor();
    expect(await page.locator('#panel-public-jobs tbody tr').count()).toBe(second.length);
    expect(await page.isDisabled('#panel-public-jobs nav.pager button.next')).toBe(total <= 20);
    await jobs.locator('button.prev').click();
    await page.locator('#panel-public-jobs nav.pager .count', { hasText: `1–10 of ${total}` }).waitFor();
    expect(await page.isDisabled('#panel-public-jobs nav.pager button.prev')).toBe(true);

    // Times name their clock.
    const heads = await page.locator('#panel-requests th').allTextContents();
    expect(heads).toContain('at (wall clock, UTC)');
    expect(heads).toContain('answered (tenant clock, UTC)');
    expect(await page.locator('#panel-public-jobs th').allTextContents()).toContain('updated (tenant clock, UTC)');

    // An opened exchange stays open across two refreshes of the request log.
    const entry = page.locator('#panel-requests details').first();
    const id = await entry.getAttribute('data-keep');
    await entry.locator('summary').click();
    for (let i = 0; i < 2; i++) {
      const stamp = await page.textContent('#updated');
      await until('a refresh', async () => ((await page.textContent('#updated')) !== stamp ? true : undefined));
    }
    expect(await page.locator(`#panel-requests details[data-keep="${id}"]`).evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();

    // 420 px: nothing wider than the window (tables stack or scroll inside their own box).
    const narrow = await openConsole(420);
    await pick(narrow.page, defaultTenant);
    await narrow.page.locator('#panel-public-findings tbody tr').first().waitFor();
    await narrow.page.locator('#panel-requests tbody tr').first().waitFor();
    const widths = await narrow.page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      tables: [...document.querySelectorAll('table')].map((t) => ({ panel: t.closest('section')?.id, right: Math.round(t.closest('.table-wrap')!.getBoundingClientRect().right) })),
    }));
    expect(widths.page).toBeLessThanOrEqual(420);
    expect(widths.tables.length).toBeGreaterThan(3);
    for (const t of widths.tables) expect(t.right, t.panel).toBeLessThanOrEqual(420);
    expect(narrow.errors).toEqual([]);
    await narrow.page.close();
  }, 60_000);

  it('draws each lifecycle from its table in force with the current state highlighted, a job timeline and SIMA exposure by outcome', async () => {
    const { page, errors } = await openConsole();
    await pick(page, defaultTenant);
    const tables = (await admin('GET', '/_sim/lifecycles')).body.machines as Array<{ name: string; states: string[]; terminal: string[]; moves: Array<{ from: string[]; to: string | null }> }>;
    const pairs = (name: string) => new Set(tables.find((t) => t.name === name)!.moves.flatMap((m) => (m.to ? m.from.map((f) => `${f}>${m.to}`) : [])));

    // The job lifecycle: a box per state of its table (terminal ones marked), an arrow per move, and the
    // state of the job picked (the most recently moved) highlighted.
    const job = page.locator('#panel-lifecycles figure.lifecycle[data-machine="job"]');
    await job.waitFor();
    const jobTable = tables.find((t) => t.name === 'job')!;
    expect(await job.locator('g.state').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-state')))).toEqual(jobTable.states);
    expect(await job.locator('g.state.terminal').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-state')))).toEqual(jobTable.terminal);
    expect(new Set(await job.locator('g.edge').evaluateAll((gs) => gs.map((g) => `${g.getAttribute('data-from')}>${g.getAttribute('data-to')}`)))).toEqual(pairs('job'));
    const pickedJob = await page.inputValue('#lifecycle-resource');
    const moves = (await admin('GET', `/_sim/transitions?machine=job&resourceId=${pickedJob}`)).body.items;
    expect(await job.locator('g.state.current').getAttribute('data-state')).toBe(moves.at(-1).to);
    expect(await job.locator('g.edge.taken').count()).toBe(2); // PENDING → PROCESSING → COMPLETED

    // The feed session acknowledged earlier: READY highlighted, and the moves it took in bold.
    await page.selectOption('#lifecycle-machine', 'feed-session');
    await page.locator('#panel-lifecycles figure.lifecycle[data-machine="feed-session"]').waitFor();
    await page.selectOption('#lifecycle-resource', sessionId);
    await page.locator('#panel-lifecycles g.state.current[data-state="READY"]').waitFor();
    expect(new Set(await page.locator('#panel-lifecycles g.edge').evaluateAll((gs) => gs.map((g) => `${g.getAttribute('data-from')}>${g.getAttribute('data-to')}`)))).toEqual(pairs('feed-session'));
    expect(await page.locator('#panel-lifecycles g.edge.taken[data-from="PREVIEW_BLOCKED"][data-to="READY"]').count()).toBe(1);

    // The table in force: a defect's row appears, dashed and named, while it is on.
    await page.selectOption('#lifecycle-machine', 'job');
    expect((await admin('PUT', '/_sim/defects', { active: ['jobs.failed-reads-completed'] })).status).toBe(200);
    const deviation = page.locator('#panel-lifecycles figure[data-machine="job"] g.edge.deviation[data-from="PROCESSING"][data-to="COMPLETED"]');
    await deviation.waitFor();
    expect(await deviation.locator('title').textContent()).toContain('jobs.failed-reads-completed');
    expect((await admin('PUT', '/_sim/defects', { active: [] })).status).toBe(200);
    await deviation.waitFor({ state: 'detached' });

    // The job timeline: a row per job of the page, each created, started and finished (tenant clock).
    const shown = (await api('GET', '/api/jobs?limit=10', { token })).body.jobs.map((j: { id: string }) => j.id);
    const rows = page.locator('#panel-public-jobs figure.timeline g.job-row');
    await rows.first().waitFor();
    expect(await rows.evaluateAll((gs) => gs.map((g) => g.getAttribute('data-job')))).toEqual(shown);
    expect(await page.locator('#panel-public-jobs figure.timeline g.job-row rect.running').count()).toBe(shown.length);
    expect(await rows.first().locator('title').textContent()).toMatch(/created .+, started .+, finished .+ \(tenant clock, UTC\)/);

    // SIMA exposure by outcome: a bar per outcome, its length the summed annual exposure of its results.
    const results = (await api('GET', '/api/sima/results?limit=1000', { token })).body.outcomes as Array<{ outcome: string; exposureAnnual: number | null }>;
    const bars = page.locator('#panel-public-sima figure.exposure g.bar');
    await bars.first().waitFor();
    const drawn = await bars.evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-outcome'), Number(g.getAttribute('data-exposure')), Number(g.querySelector('rect')!.getAttribute('width'))] as const));
    const sum = (outcome: string) => results.filter((r) => r.outcome === outcome).reduce((total, r) => total + (r.exposureAnnual ?? 0), 0);
    for (const [outcome, exposure] of drawn) expect(exposure, outcome!).toBeCloseTo(sum(outcome!), 6);
    const widest = drawn.reduce((a, b) => (b[1] > a[1] ? b : a));
    for (const [outcome, exposure, width] of drawn) expect(width, outcome!).toBeCloseTo(widest[1] ? (exposure / widest[1]) * widest[2] : 0, 0);
    expect(drawn.map(([o]) => o)).toEqual(expect.arrayContaining(['AT_RISK', 'NEEDS_REVIEW', 'CLEARED']));

    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('resets the sandbox only after a second, confirming click, and shows the fresh default tenant', async () => {
    const { page, errors } = await openConsole();
    const before = (await admin('GET', '/_sim/tenants')).body;
    expect(before.total).toBeGreaterThan(1);
    await page.click('#reset');
    expect(await page.isVisible('#reset-confirm')).toBe(true);
    await page.click('#reset-no'); // taken back: nothing happened
    expect(await page.isVisible('#reset-confirm')).toBe(false);
    expect((await admin('GET', '/_sim/tenants')).body.total).toBe(before.total);

    await page.click('#reset');
    await page.click('#reset-yes');
    const reset = await outcomeOf(page, 'reset the sandbox');
    expect(reset.result).toBe('ok');
    const after = (await admin('GET', '/_sim/tenants')).body;
    expect(after.total).toBe(1);
    expect(after.tenants[0].id).not.toBe(defaultTenant);
    expect(reset.text).toContain(after.tenants[0].id);
    await until('the picker to hold the fresh tenant only', async () => {
      const values = await page.locator('#tenant-picker option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      return values.length === 1 && values[0] === after.tenants[0].id ? true : undefined;
    });
    await page.locator('#panel-public-jobs', { hasText: 'no jobs yet' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
