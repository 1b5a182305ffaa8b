// /docs in a real headless Chromium (issue 16 item 3, issue 29 item 5): Swagger UI renders every tag, operation
// and webhook of each served contract from this server alone, without a console warning or error; the switcher
// brings up another version; and "Try it out" sends requests from the page to this sandbox (the served contracts
// list it first among their servers), with the key and then the bearer given in the Authorize dialog.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS, CONTROL_CONTRACT, loadContract, type JsonObject } from '../../contracts/lib/bundle.js';
import { launchChromium, lookupChromium } from '../../scripts/browser/chromium.js';
import { createSimulator, type Simulator } from '../app.js';
import { createTestDeps } from '../testing/kernel.js';

const chromium = lookupChromium();
// Swagger UI resolves a 3.1 document in the page; on a loaded two-core machine that took up to 46 s.
const RENDER_TIMEOUT_MS = 120_000;
const INTEGRATION_KEY = 'tfk_docs_browser_key';

/** Each operation and webhook of a contract as Swagger UI files it: under its first tag, by operationId. */
function expectedItems(name: string) {
  const doc = loadContract(name);
  const operations = (items: JsonObject) => Object.values(items).flatMap((item) => Object.values(item as JsonObject)).filter((op): op is JsonObject => typeof op === 'object' && op !== null && 'operationId' in op);
  const all = [...operations(doc.paths), ...operations((doc.webhooks ?? {}) as JsonObject)];
  return {
    tags: [...new Set(all.flatMap((op) => (op.tags ?? ['default']) as string[]))],
    operations: all.map((op) => `operations-${((op.tags ?? ['default']) as string[])[0]}-${op.operationId as string}`),
    webhooks: operations((doc.webhooks ?? {}) as JsonObject).length,
  };
}

/** What the page said that a reader would have to worry about: console warnings and errors, uncaught errors, failed requests. */
function watch(page: Page, origin: string) {
  const complaints: string[] = [];
  const elsewhere: string[] = [];
  page.on('console', (message) => (message.type() === 'error' || message.type() === 'warning') && complaints.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => complaints.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (req) => complaints.push(`failed: ${req.url()}`));
  page.on('response', (res) => res.status() >= 400 && complaints.push(`${res.status()} ${res.url()}`));
  page.on('request', (req) => !req.url().startsWith(`${origin}/`) && !req.url().startsWith('data:') && elsewhere.push(req.url()));
  return { complaints, elsewhere };
}

describe.skipIf(chromium.skipReason !== null)(`the API reference at /docs in Chromium${chromium.skipReason ? ` (skipped: ${chromium.skipReason})` : ''}`, () => {
  let sim: Simulator;
  let server: Server;
  let browser: Browser;
  let origin: string;
  beforeAll(async () => {
    [browser, sim] = await Promise.all([launchChromium(chromium), createTestDeps({ config: { integrationKey: INTEGRATION_KEY } }).then((deps) => createSimulator(deps))]);
    await sim.start();
    server = createServer(sim.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    server?.close();
    await sim?.stop();
  });

  const rendered = async (page: Page, name: string) => {
    await page.waitForSelector(`#reference[data-version="${name}"]`, { timeout: RENDER_TIMEOUT_MS });
    return {
      tags: await page.$$eval('#reference .opblock-tag', (elements) => elements.map((e) => e.getAttribute('data-tag') ?? '')),
      operations: await page.$$eval('#reference .opblock', (elements) => elements.map((e) => e.id)),
    };
  };

  it('renders every tag, operation and webhook of each served contract, switching by the version picker, with no console warning or error and nothing asked of another host', async () => {
    const page = await browser.newPage();
    const { complaints, elsewhere } = watch(page, origin);
    try {
      await page.goto(`${origin}/docs`);
      const served = [...CONTRACT_VERSIONS, CONTROL_CONTRACT];
      expect(served).toEqual(['v1.3.0', 'v1.2.0', 'v1.1.0', 'sandbox-control']);
      for (const [i, name] of served.entries()) {
        if (i > 0) await page.selectOption('#version', name); // the first is what /docs opens on
        const shown = await rendered(page, name);
        const expected = expectedItems(name);
        expect(shown.tags.sort(), name).toEqual(expected.tags.sort());
        expect(shown.operations.sort(), name).toEqual(expected.operations.sort());
        expect(new URL(page.url()).searchParams.get('version')).toBe(name);
        expect(complaints, name).toEqual([]);
      }
      expect(expectedItems('v1.3.0').webhooks).toBeGreaterThan(0); // so the webhooks were among what was compared
      expect(elsewhere).toEqual([]);
    } finally {
      await page.close();
    }
  }, 600_000);

  it("sends the token exchange and then GET /api/jobs from the page with Try it out, both reaching this sandbox and shown as 200", async () => {
    const page = await browser.newPage();
    const { complaints, elsewhere } = watch(page, origin);
    const authorize = async (scheme: string, value: string) => {
      await page.click('.auth-wrapper button.authorize');
      const container = page.locator('.modal-ux .auth-container', { has: page.locator(`h4:has-text("${scheme}")`) });
      await container.locator('input').fill(value);
      await container.locator('button.authorize').click();
      await page.click('.modal-ux button.btn-done');
    };
    const tryOut = async (operation: string, path: string) => {
      const block = page.locator(`#${operation}`);
      await block.locator('.opblock-summary-control').click();
      await block.locator('button.try-out__btn').click();
      // Swagger UI fills in the parameters' defaults (GET /api/jobs?limit=...): the path is what must match.
      const reached = page.waitForResponse((res) => res.url().startsWith(`${origin}/`) && new URL(res.url()).pathname === path, { timeout: RENDER_TIMEOUT_MS });
      await block.locator('button.execute').click();
      const response = await reached;
      const status = block.locator('.live-responses-table tr.response td.response-col_status');
      await status.waitFor({ timeout: RENDER_TIMEOUT_MS });
      return { sandbox: response.status(), shown: (await status.innerText()).trim(), body: await response.text() };
    };
    try {
      await page.goto(`${origin}/docs?version=v1.3.0`);
      await rendered(page, 'v1.3.0');

      await authorize('integrationKey', INTEGRATION_KEY);
      const exchange = await tryOut('operations-auth-exchangeIntegrationToken', '/api/auth/token/integration');
      expect(exchange.sandbox, exchange.body).toBe(200);
      expect(exchange.shown).toBe('200');
      const token = JSON.parse(exchange.body).access_token as string;
      expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      // The body Swagger UI shows is the sandbox's answer, token included.
      expect(await page.locator('#operations-auth-exchangeIntegrationToken .live-responses-table tr.response td.response-col_description').innerText()).toContain(token);

      await authorize('integrationBearer', token);
      const jobs = await tryOut('operations-jobs-listJobs', '/api/jobs');
      expect(jobs.sandbox, jobs.body).toBe(200);
      expect(jobs.shown).toBe('200');
      expect(JSON.parse(jobs.body)).toMatchObject({ jobs: [], count: 0 }); // a fresh tenant: no jobs yet

      expect(complaints).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await page.close();
    }
  }, 600_000);
});
