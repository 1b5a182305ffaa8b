import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certified } from '../reporters/format.js';
import { defineCheck, type Check } from './check.js';
import { runSuite } from './runner.js';
import type { TargetOptions } from './types.js';

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const options = (extra: Partial<TargetOptions> = {}): TargetOptions => ({ baseUrl, apiKey: 'k', contract: 'v1.3.0', profile: 'sandbox', seed: 1, runs: 1, ...extra });
const sleeping = (id: string, ms: number): Check => defineCheck({ id, title: id, area: 'test', needs: [], run: () => new Promise((resolve) => setTimeout(resolve, ms)) });

describe('the runner', () => {
  it('starts no check once --max-duration has passed: the running one finishes, the rest are "not run", and nothing is certified', async () => {
    const report = await runSuite(options({ maxDurationMs: 150 }), [sleeping('t.a', 10), sleeping('t.b', 250), sleeping('t.c', 10), sleeping('t.d', 10)]);
    expect(report.results.map((result) => [result.id, result.verdict])).toEqual([
      ['t.a', 'passed'],
      ['t.b', 'passed'],
      ['t.c', 'not run'],
      ['t.d', 'not run'],
    ]);
    expect(report.results[2]!.reason).toBe('not run: --max-duration 150ms reached');
    expect(report.totals).toEqual({ passed: 2, failed: 0, skipped: 0, notRun: 2 });
    expect(report.stopped).toEqual({ maxDurationMs: 150, notRun: 2 });
    expect(certified(report)).toBe(false);
  });

  it('counts each check\'s requests to the target per rate bucket, and nothing sent elsewhere', async () => {
    const sender = defineCheck({
      id: 't.sender',
      title: 'sends',
      area: 'test',
      needs: [],
      async run() {
        await (await fetch(`${baseUrl}/api/jobs`)).text();
        await (await fetch(`${baseUrl}/api/jobs`, { method: 'POST', body: '{}' })).text();
        const form = new FormData();
        form.set('file', new Blob(['a,b\n']), 'f.csv');
        await (await fetch(`${baseUrl}/api/trade/feeds/upload`, { method: 'POST', body: form })).text();
        // The control API has no rate bucket.
        await (await fetch(`${baseUrl}/_sim/clock`)).text();
      },
    });
    const report = await runSuite(options(), [sender, sleeping('t.quiet', 1)]);
    expect(report.results[0]!.requestsByBucket).toEqual({ read: 1, write: 1, upload: 1 });
    expect(report.results[1]!.requestsByBucket).toEqual({ read: 0, write: 0, upload: 0 });
    expect(globalThis.fetch.name).not.toBe('metered'); // given back after the run
  });

  it('with a second key, runs the second-tenant lane as that tenant beside the other checks, and the checks using the second tenant after that lane', async () => {
    const events: string[] = [];
    const tracing = (id: string, ms: number, extra: Partial<Check> = {}): Check =>
      defineCheck({
        id,
        title: id,
        area: 'test',
        needs: [],
        ...extra,
        async run(ctx) {
          events.push(`${id} start as ${ctx.client.apiKey}${ctx.second ? ` with ${ctx.second.apiKey}` : ''}`);
          await fetch(`${baseUrl}/api/jobs?from=${id}`);
          await new Promise((resolve) => setTimeout(resolve, ms));
          events.push(`${id} end`);
        },
      });
    const checks = [
      tracing('t.first', 60),
      tracing('t.lane-a', 150, { lane: 'second-tenant' }),
      tracing('t.uses-second', 10, { needs: ['secondTenant'] }),
      tracing('t.second', 60),
      tracing('t.lane-b', 10, { lane: 'second-tenant' }),
    ];
    const report = await runSuite(options({ secondApiKey: 'k2' }), checks);
    // Reported in the catalogue's order whatever order they ran in, each with its own requests.
    expect(report.results.map((result) => [result.id, result.verdict, result.requestsByBucket?.read])).toEqual(checks.map((check) => [check.id, 'passed', 1]));
    expect(events.slice(0, 2).sort()).toEqual(['t.first start as k with k2', 't.lane-a start as k2']);
    // The second tenant's own checks wait for its lane to end; the rest do not.
    expect(events.indexOf('t.second start as k with k2')).toBeLessThan(events.indexOf('t.lane-a end'));
    expect(events.indexOf('t.uses-second start as k with k2')).toBeGreaterThan(events.indexOf('t.lane-b end'));

    // Without a second key every check runs in turn as the first key (the one needing a second tenant is skipped).
    events.length = 0;
    await runSuite(options(), checks);
    const inTurn = checks.filter((check) => check.id !== 't.uses-second').flatMap((check) => [`${check.id} start as k`, `${check.id} end`]);
    expect(events).toEqual(inTurn);
  });
});
