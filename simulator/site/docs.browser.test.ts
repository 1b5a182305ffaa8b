// /docs in a real headless Chromium (issue 16 item 3): Redoc renders every tag and webhook of the contract
// from this server alone, and the switcher brings up another version.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type JsonObject } from '../../contracts/lib/bundle.js';
import { launchChromium, lookupChromium } from '../../scripts/browser/chromium.js';
import { createSimulator, type Simulator } from '../app.js';
import { createTestDeps } from '../testing/kernel.js';

const chromium = lookupChromium();
const RENDER_TIMEOUT_MS = 15_000;

/** The tags of a contract's operations and webhooks, and the operationId of each webhook. */
function expectedItems(version: string) {
  const doc = loadContract(version);
  const operations = (items: JsonObject) => Object.values(items).flatMap((item) => Object.values(item as JsonObject)).filter((op): op is JsonObject => typeof op === 'object' && op !== null && 'operationId' in op);
  const webhooks = operations((doc.webhooks ?? {}) as JsonObject);
  const tags = new Set([...operations(doc.paths), ...webhooks].flatMap((op) => (op.tags ?? []) as string[]));
  return { tags: [...tags], webhooks: webhooks.map((op) => ({ id: op.operationId as string, tag: ((op.tags ?? []) as string[])[0] })) };
}

describe.skipIf(chromium.skipReason !== null)(`the API reference at /docs in Chromium${chromium.skipReason ? ` (skipped: ${chromium.skipReason})` : ''}`, () => {
  let sim: Simulator;
  let server: Server;
  let browser: Browser;
  let origin: string;
  beforeAll(async () => {
    [browser, sim] = await Promise.all([launchChromium(chromium), createTestDeps().then((deps) => createSimulator(deps))]);
    await sim.start();
    server = createServer(sim.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    server?.close();
    await sim?.stop();
  });

  const itemIds = (page: Page) => page.$$eval('[data-item-id]', (elements) => elements.map((e) => e.getAttribute('data-item-id') ?? ''));

  it('shows every tag and webhook of v1.3.0, asks nothing of another host, and shows v1.1.0 signup operations once switched', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    const failures: string[] = [];
    page.on('request', (req) => requested.push(req.url()));
    page.on('response', (res) => res.status() >= 400 && failures.push(`${res.status()} ${res.url()}`));
    page.on('console', (message) => message.type() === 'error' && failures.push(message.text()));
    page.on('pageerror', (error) => failures.push(error.message));
    try {
      await page.goto(`${origin}/docs`);
      await page.waitForSelector('#reference[data-version="v1.3.0"]', { timeout: RENDER_TIMEOUT_MS });
      const v13 = expectedItems('v1.3.0');
      expect(v13.webhooks.length).toBeGreaterThan(0);
      const shown = await itemIds(page);
      for (const tag of v13.tags) expect(shown, `tag ${tag}`).toContain(`tag/${tag}`);
      for (const webhook of v13.webhooks) expect(shown, `webhook ${webhook.id}`).toContain(`tag/${webhook.tag}/operation/${webhook.id}`);
      // ...and each webhook's section is rendered in the reference itself, not only listed in the menu.
      for (const webhook of v13.webhooks) expect(await page.locator(`[id="tag/${webhook.tag}/operation/${webhook.id}"]`).count(), webhook.id).toBeGreaterThan(0);

      await page.selectOption('#version', 'v1.1.0');
      await page.waitForSelector('#reference[data-version="v1.1.0"]', { timeout: RENDER_TIMEOUT_MS });
      expect(new URL(page.url()).searchParams.get('version')).toBe('v1.1.0');
      const signup = Object.values(loadContract('v1.1.0').paths).flatMap((item) => Object.values(item as JsonObject)).filter((op) => ((op as JsonObject).tags as string[] | undefined)?.includes('signup'));
      expect(signup.length).toBeGreaterThan(0);
      const switched = await itemIds(page);
      for (const op of signup) expect(switched).toContain(`tag/signup/operation/${(op as JsonObject).operationId}`);
      expect(switched).not.toContain('tag/claims'); // v1.3.0's reference is gone, not merged

      expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith(`blob:${origin}/`) && !url.startsWith('data:'))).toEqual([]);
      expect(failures).toEqual([]);
    } finally {
      await page.close();
    }
  }, 30_000);
});
