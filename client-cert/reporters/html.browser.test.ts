// The client certificate's HTML in a real headless Chromium (as the console's test does): one file that
// loads nothing else, the verdict, the rule table, and per run a timeline picture whose marks are the run's
// requests, webhook attempts and sandbox actions. Skips locally without a chromium; fails under CI=true.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, lookupChromium } from '../../scripts/browser/chromium.js';
import { CLIENT_RULES } from '../rules/index.js';
import { judge } from '../run.js';
import type { Evidence, LoggedRequest } from '../types.js';
import { renderClientHtml } from './html.js';

const chromium = lookupChromium();
let browser: Browser | undefined;

const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const request = (ms: number, method: string, path: string, status: number, extra: Partial<LoggedRequest> = {}): LoggedRequest => ({
  id: `req-${ms}`,
  at: iso(ms),
  virtualAt: iso(ms),
  tenantId: 't-1',
  method,
  path,
  query: '',
  operationId: null,
  status,
  durationMs: 5,
  request: { headers: {}, body: null, bodyTruncated: false, bodyBytes: null },
  response: { headers: {}, bodyTruncated: false, bodyBytes: null, body: path.startsWith('/api/jobs/') ? { status: ms > 6000 ? 'COMPLETED' : 'PROCESSING' } : status === 429 ? { code: 'RATE_LIMITED', details: { retryAfterSeconds: 2 } } : null },
  faults: [],
  ...extra,
});

/** A run with a token exchange, a write refused by injected chaos and retried, polls 200 ms apart, and a webhook attempt. */
const run: Evidence = {
  scenario: 'flaky',
  tenantId: 't-1',
  requests: [
    request(100, 'POST', '/api/auth/token/integration', 200, { response: { headers: {}, body: { access_token: '***', expires_in: 3600 }, bodyTruncated: false, bodyBytes: null } }),
    request(300, 'POST', '/api/sima/batch', 500, { faults: ['requestChaos.serverError'], response: { headers: {}, body: { code: 'INTERNAL_ERROR' }, bodyTruncated: false, bodyBytes: null } }),
    request(1400, 'POST', '/api/sima/batch', 202),
    ...[2000, 2200, 2400, 2600, 7000].map((ms) => request(ms, 'GET', '/api/jobs/j-1', 200)),
  ],
  deliveries: [{ id: 'd-1', tenantId: 't-1', jobId: 'j-1', event: 'job.completed', url: 'http://127.0.0.1:1/h', status: 'delivered', attempts: [{ number: 1, at: iso(6500), statusCode: 204, error: null, durationMs: 3, chaos: ['badSignature'] }], nextAttemptAt: null, createdAt: iso(6500), origin: 'job' }],
  actions: [{ atMs: T0 + 50, what: 'request chaos: writes 1, 2, 3 answer 500 <script>', clockOffsetMs: 0 }],
  startedAtMs: T0,
  endedAtMs: T0 + 8000,
  exitCode: 0,
  timedOut: false,
  outputTail: '<b>not markup</b>',
};

describe.skipIf(chromium.skipReason !== null)(`the client certificate in Chromium${chromium.skipReason ? ` (skipped: ${chromium.skipReason})` : ''}`, () => {
  beforeAll(async () => {
    browser = await launchChromium(chromium);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('is one self-contained page: the verdict, every rule, and a timeline with a mark per request, attempt and action', async () => {
    const certificate = judge({ baseUrl: 'http://127.0.0.1:4010', command: ['node', 'client.mjs'], scenario: 'flaky' }, [run], iso(0), CLIENT_RULES);
    const page = await browser!.newPage();
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('data:') && r.url() !== 'about:blank') outside.push(r.url());
    });
    await page.setContent(renderClientHtml(certificate), { waitUntil: 'load' });
    expect(outside).toEqual([]);
    expect(await page.textContent('#verdict')).toBe('NOT CERTIFIED');
    // The 200 ms polls and the accepted bad signature are failures, shown with the rule that says so.
    expect(await page.locator('#summary tr').count()).toBe(CLIENT_RULES.length + 1);
    expect(await page.getAttribute('#rule-polling\\.pace', 'data-verdict')).toBe('failed');
    expect(await page.getAttribute('#rule-webhook\\.rejects-bad-signature', 'data-verdict')).toBe('failed');
    expect(await page.getAttribute('#rule-retry\\.waits-after-429', 'data-verdict')).toBe('not exercised');
    const svg = page.locator('#run-flaky svg.timeline');
    expect(await svg.count()).toBe(1);
    expect(await svg.locator('circle.request').count()).toBe(run.requests.length);
    expect(await svg.locator('path.attempt').count()).toBe(1);
    expect(await svg.locator('g.action').count()).toBe(1);
    // The time axis: the polls 200 ms apart sit close, the last one far to the right.
    const xs = await svg.locator('circle.request').evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('cx'))));
    expect(xs[4]! - xs[3]!).toBeLessThan(40);
    expect(xs[7]! - xs[6]!).toBeGreaterThan(300);
    // The faulted write is outlined; its tooltip names the fault.
    expect(await svg.locator('circle.request[stroke]').count()).toBe(1);
    expect(await svg.locator('circle.request[stroke] title').textContent()).toContain('requestChaos.serverError');
    // Text from the run is shown as text, never as markup.
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('#run-flaky pre').textContent()).toBe('<b>not markup</b>');
    expect(await page.locator('#run-flaky details li').first().textContent()).toContain('answer 500 <script>');
    const box = await svg.boundingBox();
    expect(box!.width).toBeGreaterThan(600);
    await page.close();
  });
});
