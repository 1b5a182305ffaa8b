import { describe, expect, it } from 'vitest';
import { JSON_REPORT_SCHEMA_VERSION, renderJson } from './json.js';
import { ACCESS_TOKEN, API_KEY, manyFailuresReport, syntheticReport } from './reports.testing.js';

describe('JSON reporter', () => {
  it('writes the RunReport as is, pretty, with a schema version', () => {
    const report = syntheticReport();
    const text = renderJson(report);
    expect(text).toContain('\n  "schemaVersion": 1,');
    const parsed = JSON.parse(text);
    expect(parsed.schemaVersion).toBe(JSON_REPORT_SCHEMA_VERSION);
    expect(parsed.target).toEqual(report.target);
    expect(parsed.totals).toEqual(report.totals);
    expect(parsed.replay).toBe(report.replay);
    expect(parsed.results.map((r: { id: string; verdict: string }) => `${r.id}:${r.verdict}`)).toEqual(report.results.map((r) => `${r.id}:${r.verdict}`));
    const failure = parsed.results[2].failures[0];
    expect(failure).toMatchObject({ rule: 'illegal-transition-rejected', seed: 424242, counterexample: '[Enqueue({"skus":["A&B"]}), Cancel(), Poll()]' });
    expect(failure.exchange.request.method).toBe('POST');
    expect(failure.exchange.response.status).toBe(500);
    expect(parsed.results[4].reason).toBe(report.results[4]!.reason);
    expect(parsed.only).toBeUndefined();
    expect(parsed.shard).toBeUndefined();
    expect(parsed.coverageFile).toBeUndefined();
  });

  it("records a shard's place in the run, the suite, and the coverage file written beside it", () => {
    const report = syntheticReport();
    const selection = [...report.results.map((r) => r.id), 'other.check'];
    const suite = { version: '0.1.0', checks: 40, digest: '0123456789abcdef' };
    const coverage = { contract: 'v1.3.0', totals: { constraints: 0, exercised: 0, notExercised: 0, notExercisedBy: {} }, operations: [] };
    const parsed = JSON.parse(renderJson(report, { suite, shard: { index: 2, count: 4, selection }, coverage }));
    expect(parsed.shard).toEqual({ index: 2, count: 4, selectedChecks: 7, selection });
    expect(parsed.suite).toEqual(suite);
    expect(parsed.coverageFile).toBe('coverage.json');
    expect(JSON.parse(renderJson(report, { merged: { shards: 4 } })).merged).toEqual({ shards: 4 });
  });

  it('masks secrets, reduces the contract operation to its name, and records a partial selection', () => {
    const report = syntheticReport();
    report.results[1]!.failures[0]!.exchange!.operation = { section: 'paths', path: '/api/auth/token/integration', method: 'post', operationId: 'exchangeIntegrationKey', operation: { huge: true }, parameters: [], tags: ['auth'] };
    const text = renderJson(report, { only: ['auth'] });
    expect(text).not.toContain(ACCESS_TOKEN);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain('whsec_very_secret_value');
    const parsed = JSON.parse(text);
    expect(parsed.only).toEqual(['auth']);
    expect(parsed.results[1].failures[0].exchange.operation).toEqual({ operationId: 'exchangeIntegrationKey', method: 'post', path: '/api/auth/token/integration' });
    expect(parsed.results[1].failures[0].exchange.response.body.access_token).toBe(`${ACCESS_TOKEN.slice(0, 8)}…`);
    expect(parsed.results[1].failures[0].exchange.request.headers['x-api-key']).toBe(`${API_KEY.slice(0, 8)}…`);
    // the original report is not changed
    expect((report.results[1]!.failures[0]!.exchange!.response.body as { access_token: string }).access_token).toBe(ACCESS_TOKEN);
  });
});

describe('the JSON report of a run with many failures', () => {
  it('keeps every failure and lists the causes', () => {
    const json = JSON.parse(renderJson(manyFailuresReport()));
    expect(json.results.reduce((sum: number, result: { failures: unknown[] }) => sum + result.failures.length, 0)).toBe(1362);
    expect(json.causes).toHaveLength(17);
    expect(json.causes[0].operations.length).toBeGreaterThan(20);
  });
});
