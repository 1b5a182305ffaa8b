// Merging the shards' JSON reports: the merged report is the one an unsharded run writes (results in the
// selection's order, totals, coverage summed), and reports that are not the N shards of one run are refused.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoverageReport } from '../checks/operations/coverage.js';
import { loadTargetContract } from '../harness/contract.js';
import { checksOfShard, type SuiteIdentity } from '../harness/shard.js';
import { totalsOf, type RunReport } from '../harness/types.js';
import { COVERAGE_FILE, renderCoverageJson } from './coverage.js';
import type { RunContext } from './format.js';
import { renderHtml } from './html.js';
import { renderJson, toJsonReport, type JsonRunReport } from './json.js';
import { renderJUnit } from './junit.js';
import { MergeRefused, mergeCoverage, mergeShardReports, readShardReport } from './merge.js';
import { ACCESS_TOKEN, syntheticReport } from './reports.testing.js';

const SUITE: SuiteIdentity = { version: '0.1.0', checks: 40, digest: '0123456789abcdef' };
const COUNT = 3;

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'conform-merge-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The whole run: the synthetic report, one failure's exchange naming its contract operation. */
function wholeRun(): RunReport {
  const report = syntheticReport();
  report.results[1]!.failures[0]!.exchange!.operation = loadTargetContract('v1.3.0').operation('exchangeIntegrationToken');
  report.notes = ['tenant t_1 could not be deleted: 500'];
  return report;
}

/** The run's report cut as shard `index` of COUNT would have written it. */
function shardOf(full: RunReport, index: number, edit: (report: RunReport, context: RunContext) => void = () => {}): { report: RunReport; context: RunContext } {
  const results = checksOfShard(full.results, { index, count: COUNT });
  const totals = totalsOf(results);
  const report: RunReport = { ...full, results, totals, startedAt: `2025-06-01T10:0${index}:00.000Z`, finishedAt: `2025-06-01T10:0${index}:30.000Z`, notes: index === 2 ? full.notes : undefined };
  const context: RunContext = { suite: SUITE, suiteSize: SUITE.checks, shard: { index, count: COUNT, selection: full.results.map((result) => result.id) } };
  edit(report, context);
  return { report, context };
}

let dirs = 0;
/** Writes a report.json (and coverage.json when given) into a fresh directory; returns the directory. */
function write(report: RunReport, context: RunContext): string {
  const dir = path.join(work, `shard-${++dirs}`);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'report.json'), renderJson(report, context));
  if (context.coverage) writeFileSync(path.join(dir, COVERAGE_FILE), renderCoverageJson(context.coverage));
  return dir;
}

function shardDirs(full: RunReport, edit?: (index: number, report: RunReport, context: RunContext) => void): string[] {
  return Array.from({ length: COUNT }, (_, i) => {
    const { report, context } = shardOf(full, i + 1, edit && ((r, c) => edit(i + 1, r, c)));
    return write(report, context);
  });
}

const merge = (inputs: string[]) => mergeShardReports(inputs.map(readShardReport));

describe('merging the shards of a run', () => {
  it('every shard holds part of the synthetic run (so the merges below put several shards together)', () => {
    const sizes = Array.from({ length: COUNT }, (_, i) => checksOfShard(wholeRun().results, { index: i + 1, count: COUNT }).length);
    expect(sizes.filter((size) => size > 0).length).toBeGreaterThanOrEqual(2);
  });

  it('writes the JSON report an unsharded run writes, saying it was merged from N shards', () => {
    const full = wholeRun();
    const { report, context } = merge(shardDirs(full).reverse());
    expect(context.merged).toEqual({ shards: COUNT });
    const { merged, ...json } = toJsonReport(report, context);
    expect(merged).toEqual({ shards: COUNT });
    const unsharded = toJsonReport({ ...full, startedAt: '2025-06-01T10:01:00.000Z', finishedAt: '2025-06-01T10:03:30.000Z' }, { suite: SUITE });
    // Notes say which shard they come from; everything else is the unsharded report, in the selection's order.
    expect({ ...json, notes: undefined }).toEqual({ ...unsharded, notes: undefined });
    expect(json.notes).toEqual(['shard 2/3: tenant t_1 could not be deleted: 500']);
    expect(json.shard).toBeUndefined();
    // The exchange's operation is the contract's again, so the HTML names it; secrets stay masked.
    expect(report.results[1]!.failures[0]!.exchange!.operation).toBe(loadTargetContract('v1.3.0').operation('exchangeIntegrationToken'));
    const html = renderHtml(report, context);
    expect(html).toContain('<span class="op">exchangeIntegrationToken</span>');
    expect(html).toContain(`merged from ${COUNT} shards: 6 checks`);
    expect(html).not.toContain(ACCESS_TOKEN);
    expect(renderJUnit(report, context)).toContain(`<property name="mergedFromShards" value="${COUNT}"/>`);
  });

  it('takes report.json files as well as their directories', () => {
    const files = shardDirs(wholeRun()).map((dir) => path.join(dir, 'report.json'));
    expect(merge(files).report.results.map((result) => result.id)).toEqual(wholeRun().results.map((result) => result.id));
  });

  it('adds up the input coverage of the shards, keeping the reason of a shard that ran the operation', () => {
    // A shard that sent nothing to the operation says "not run"; one that did knows why a constraint was missed.
    const reason = (requests: number) => (requests ? 'stopped early: its covering request was not sent' : 'not run: the operation\'s checks sent no request');
    const constraint = (input: string, kind: 'maximum' | 'enum-value', detail: string, count: number, requests: number) => ({ input, kind, detail, exercised: count > 0, count, ...(count > 0 ? {} : { reason: reason(requests) }) });
    const coverage = (requests: number, counts: [number, number]): CoverageReport => ({
      contract: 'v1.3.0',
      totals: {
        constraints: 2,
        exercised: counts.filter(Boolean).length,
        notExercised: counts.filter((n) => !n).length,
        notExercisedBy: counts.some((n) => !n) ? { [reason(requests).split(':')[0]!]: counts.filter((n) => !n).length } : {},
      },
      operations: [
        {
          operationId: 'listJobs',
          method: 'GET',
          path: '/api/jobs',
          requests,
          constraints: [
            constraint('query limit', 'maximum', '100', counts[0], requests),
            constraint('query type', 'enum-value', '"ship_upload"', counts[1], requests),
          ],
        },
      ],
    });
    const parts = [coverage(0, [0, 0]), coverage(2, [2, 0]), coverage(3, [1, 0])];
    const dirs = shardDirs(wholeRun(), (index, _report, context) => (context.coverage = parts[index - 1]));
    const { context } = merge(dirs);
    expect(context.coverage).toEqual(coverage(5, [3, 0]));
    expect(mergeCoverage([coverage(1, [0, 0]), coverage(1, [0, 4])]).totals).toEqual({ constraints: 2, exercised: 1, notExercised: 1, notExercisedBy: { 'stopped early': 1 } });
  });
});

describe('refusing reports that are not the shards of one run', () => {
  const refusals: Array<[string, () => string[], RegExp]> = [
    ['another target', () => shardDirs(wholeRun(), (i, r) => i === 3 && (r.target = { ...r.target, baseUrl: 'https://other.example.test' })), /not of one run: target https:\/\/staging\.example\.test in .* https:\/\/other\.example\.test in .*shard 3\/3/],
    ['another contract version', () => shardDirs(wholeRun(), (i, r) => i === 2 && (r.target = { ...r.target, contract: 'v1.2.0' })), /contract version v1\.3\.0 .* v1\.2\.0/],
    ['another seed', () => shardDirs(wholeRun(), (i, r) => i === 2 && (r.target = { ...r.target, seed: 1 })), /seed 424242 .* 1 in .*: give every shard the same --seed \(CONFORM_SEED\)/],
    ['another suite version', () => shardDirs(wholeRun(), (i, _r, c) => i === 2 && (c.suite = { ...SUITE, digest: 'fedcba9876543210' })), /suite version 0\.1\.0 \(checks 0123456789abcdef\) .* 0\.1\.0 \(checks fedcba9876543210\)/],
    ['another --only', () => shardDirs(wholeRun(), (i, _r, c) => i === 2 && (c.only = ['auth'])), /--only selection \(every check\) .* auth in/],
    ['another shard count', () => shardDirs(wholeRun(), (i, _r, c) => i === 2 && (c.shard = { ...c.shard!, count: 4 })), /shard count 3 .* 4 in/],
    ['a missing shard', () => shardDirs(wholeRun()).slice(0, 2), /shard 3\/3 missing: a merge needs the report of every shard/],
    ['a shard given twice', () => { const dirs = shardDirs(wholeRun()); return [...dirs, dirs[0]!]; }, /shard 1\/3 is given twice/],
    ['a check reported twice', () => shardDirs(wholeRun(), (i, r) => i === 1 && r.results.push(wholeRun().results.find((x) => !checksOfShard([x], { index: 1, count: COUNT }).length)!)), /check .* is reported twice: by .*shard 1\/3.* and by .*shard [23]\/3/],
    ['a check no shard reported', () => shardDirs(wholeRun(), (_i, r) => (r.results = r.results.filter((x) => x.id !== 'jobs.list'))), /1 selected check is in no shard's report: jobs\.list/],
    ['an unsharded report', () => [write(wholeRun(), {})], /is the report of an unsharded run: only the reports of --shard K\/N runs merge/],
    ['a report without its coverage.json', () => shardDirs(wholeRun()).map((dir, i) => {
      if (i === 0) writeFileSync(path.join(dir, 'report.json'), JSON.stringify({ ...(JSON.parse(renderJson(wholeRun(), {})) as JsonRunReport), shard: { index: 1, count: 3, selectedChecks: 6, selection: [] }, coverageFile: COVERAGE_FILE }));
      return dir;
    }), /names its input coverage coverage\.json, which is not beside it/],
    ['a path that does not exist', () => [path.join(work, 'nowhere')], /nowhere does not exist/],
    ['a directory without report.json', () => [mkdtempSync(path.join(work, 'empty-'))], /holds no report\.json/],
    ['a file that is not a report', () => { const file = path.join(work, 'junk.json'); writeFileSync(file, '{"hello": 1}'); return [file]; }, /is not a conformance JSON report of schema version 1/],
  ];

  it.each(refusals)('refuses %s, saying why', (_what, inputs, message) => {
    expect(() => merge(inputs())).toThrow(MergeRefused);
    expect(() => merge(inputs())).toThrow(message);
  });

  it('refuses nothing to merge', () => {
    expect(() => mergeShardReports([])).toThrow(/needs the report of every shard/);
  });
});
