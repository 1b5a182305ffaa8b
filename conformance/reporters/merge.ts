// Merging the shards of a sharded run (issue 17 item 5): the JSON reports (report.json) of `--shard 1/N` ..
// `--shard N/N` become the report of the whole run, as an unsharded run would have written it: results in the
// selection's order, totals, notes, and the input coverage summed over the shards (coverage.json beside each
// report.json). A merge is refused, rather than made partial, when the reports are not the N shards of one
// run: different targets or run options (base URL, contract, profile, seed, runs, --only), suite versions or
// shard counts, a shard missing or given twice, a check reported twice or by no shard.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CONTRACT_VERSIONS } from '../../contracts/lib/bundle.js';
import { causeOf, coverageTotals, type CoverageReport } from '../checks/operations/coverage.js';
import { loadTargetContract } from '../harness/contract.js';
import { totalsOf, type CheckResult, type Exchange, type RunReport } from '../harness/types.js';
import type { RunContext } from './format.js';
import { JSON_REPORT_SCHEMA_VERSION, type JsonCheckResult, type JsonRunReport } from './json.js';

/** A merge the reports do not allow; the message says why (the CLI exits 2 with it). */
export class MergeRefused extends Error {}

type ShardJson = JsonRunReport & { shard: NonNullable<JsonRunReport['shard']> };

export interface ShardReport {
  /** The report.json read. */
  file: string;
  json: ShardJson;
  /** Its coverage.json, when the report names one. */
  coverage?: CoverageReport;
}

const REPORT_JSON = 'report.json';

/** A shard's report.json: given as the file or as the report directory holding it. */
export function readShardReport(input: string): ShardReport {
  const file = existsSync(input) && statSync(input).isDirectory() ? path.join(input, REPORT_JSON) : input;
  if (!existsSync(file)) throw new MergeRefused(file === input ? `${input} does not exist` : `${input} holds no ${REPORT_JSON}`);
  let json: JsonRunReport;
  try {
    json = JSON.parse(readFileSync(file, 'utf8')) as JsonRunReport;
  } catch (error) {
    throw new MergeRefused(`${file} is not a JSON report: ${(error as Error).message}`);
  }
  if (json?.schemaVersion !== JSON_REPORT_SCHEMA_VERSION || !json.target || !Array.isArray(json.results)) {
    throw new MergeRefused(`${file} is not a conformance JSON report of schema version ${JSON_REPORT_SCHEMA_VERSION}`);
  }
  if (!json.shard) throw new MergeRefused(`${file} is the report of an unsharded run: only the reports of --shard K/N runs merge`);
  const shard: ShardReport = { file, json: json as ShardJson };
  if (json.coverageFile) {
    const coverageFile = path.join(path.dirname(file), path.basename(json.coverageFile));
    // Without it the merged coverage would count fewer requests than were sent: refused rather than understated.
    if (!existsSync(coverageFile)) throw new MergeRefused(`${file} names its input coverage ${json.coverageFile}, which is not beside it: merge the shards' whole report directories`);
    shard.coverage = JSON.parse(readFileSync(coverageFile, 'utf8')) as CoverageReport;
  }
  return shard;
}

/** The fields every shard of one run has in common: how each reads in a refusal, and what to do about it. */
const SAME: Array<[string, (json: ShardJson) => unknown, string?]> = [
  ['target', (json) => json.target.baseUrl],
  ['contract version', (json) => json.target.contract],
  ['profile', (json) => json.target.profile],
  // The seed is random unless given: a merged report replays with one seed, so every shard must share it.
  ['seed', (json) => json.target.seed, 'give every shard the same --seed (CONFORM_SEED)'],
  ['runs', (json) => json.target.runs],
  ['--only selection', (json) => json.only?.join(',') ?? '(every check)'],
  ['suite version', (json) => (json.suite ? `${json.suite.version} (checks ${json.suite.digest})` : '(not recorded)'), 'run every shard from the same commit'],
  ['shard count', (json) => json.shard.count],
];

export interface MergedRun {
  report: RunReport;
  /** What the reporters need beyond the report: selection, suite, coverage, and that it was merged. */
  context: RunContext;
}

/** The report of the whole run from the reports of all its shards; throws MergeRefused when they are not that. */
export function mergeShardReports(shards: ShardReport[]): MergedRun {
  if (!shards.length) throw new MergeRefused('--merge needs the report of every shard (report.json files or their directories)');
  const [first] = shards as [ShardReport, ...ShardReport[]];
  const name = (shard: ShardReport) => `${shard.file} (shard ${shard.json.shard.index}/${shard.json.shard.count})`;
  for (const [what, value, hint] of SAME) {
    const other = shards.find((shard) => value(shard.json) !== value(first.json));
    if (other) throw new MergeRefused(`the reports are not of one run: ${what} ${value(first.json)} in ${name(first)}, ${value(other.json)} in ${name(other)}${hint ? `: ${hint}` : ''}`);
  }
  const selection = first.json.shard.selection;
  const differentSelection = shards.find((shard) => shard.json.shard.selection.join('\n') !== selection.join('\n'));
  if (differentSelection) throw new MergeRefused(`the reports are not of one run: ${name(first)} and ${name(differentSelection)} selected different checks`);

  const count = first.json.shard.count;
  const byIndex = new Map<number, ShardReport>();
  for (const shard of shards) {
    const twice = byIndex.get(shard.json.shard.index);
    if (twice) throw new MergeRefused(`shard ${shard.json.shard.index}/${count} is given twice: ${twice.file} and ${shard.file}`);
    byIndex.set(shard.json.shard.index, shard);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length) throw new MergeRefused(`shard${missing.length === 1 ? '' : 's'} ${missing.map((index) => `${index}/${count}`).join(', ')} missing: a merge needs the report of every shard`);

  const reportedBy = new Map<string, { shard: ShardReport; result: JsonCheckResult }>();
  const selected = new Set(selection);
  for (const shard of shards) {
    for (const result of shard.json.results) {
      const earlier = reportedBy.get(result.id);
      if (earlier) throw new MergeRefused(`check ${result.id} is reported twice: by ${name(earlier.shard)} and by ${name(shard)}`);
      if (!selected.has(result.id)) throw new MergeRefused(`check ${result.id} in ${name(shard)} is not in the run's selection`);
      reportedBy.set(result.id, { shard, result });
    }
  }
  const unreported = selection.filter((id) => !reportedBy.has(id));
  if (unreported.length) throw new MergeRefused(`${unreported.length} selected check${unreported.length === 1 ? ' is' : 's are'} in no shard's report: ${unreported.slice(0, 5).join(', ')}${unreported.length > 5 ? ', ...' : ''}`);

  const operationOf = exchangeOperations(first.json.target.contract);
  const results = selection.map((id) => fromJsonResult(reportedBy.get(id)!.result, operationOf));
  const totals = totalsOf(results);
  const ordered = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, shard]) => shard);
  const notes = ordered.flatMap((shard) => (shard.json.notes ?? []).map((note) => `shard ${shard.json.shard.index}/${count}: ${note}`));
  const server = ordered.find((shard) => shard.json.server)?.json.server;
  const report: RunReport = {
    target: first.json.target,
    ...(server ? { server } : {}),
    startedAt: earliest(ordered.map((shard) => shard.json.startedAt)),
    finishedAt: latest(ordered.map((shard) => shard.json.finishedAt)),
    results,
    totals,
    // Every shard's replay is the whole selection's (a shard adds --shard only when shown): the same for all.
    replay: first.json.replay,
    // A shard ended by --max-duration leaves checks "not run": the merged run is not whole either.
    ...(totals.notRun ? { stopped: { maxDurationMs: ordered.find((shard) => shard.json.stopped)?.json.stopped?.maxDurationMs ?? 0, notRun: totals.notRun } } : {}),
    ...(notes.length ? { notes } : {}),
  };
  const coverages = ordered.flatMap((shard) => (shard.coverage ? [shard.coverage] : []));
  const context: RunContext = {
    ...(first.json.only?.length ? { only: first.json.only } : {}),
    ...(first.json.suite ? { suite: first.json.suite, suiteSize: first.json.suite.checks } : {}),
    merged: { shards: count },
    ...(coverages.length ? { coverage: mergeCoverage(coverages) } : {}),
  };
  return { report, context };
}

/** The input coverage of the whole run: the requests and constraint hits of every shard added up. */
export function mergeCoverage(parts: CoverageReport[]): CoverageReport {
  const [first, ...rest] = parts as [CoverageReport, ...CoverageReport[]];
  const operations = first.operations.map((op) => ({ ...op, constraints: op.constraints.map((constraint) => ({ ...constraint })) }));
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  for (const part of rest) {
    for (const op of part.operations) {
      const into = byId.get(op.operationId);
      const same = into && into.constraints.length === op.constraints.length && op.constraints.every((c, i) => c.input === into.constraints[i]!.input && c.kind === into.constraints[i]!.kind && c.detail === into.constraints[i]!.detail);
      if (!into || !same) throw new MergeRefused(`the shards' input coverage differs for operation ${op.operationId}: not the same contract and suite`);
      into.requests += op.requests;
      op.constraints.forEach((constraint, i) => {
        const target = into.constraints[i]!;
        target.count += constraint.count;
        target.exercised = target.count > 0;
        if (constraint.rateLimited) target.rateLimited = (target.rateLimited ?? 0) + constraint.rateLimited;
        // Not exercised anywhere: the reason of a shard that ran the operation's checks says more than "not run".
        if (target.exercised) delete target.reason;
        else if (constraint.reason && (!target.reason || causeOf(target.reason) === 'not run')) target.reason = constraint.reason;
      });
    }
  }
  return { ...first, totals: coverageTotals(operations), operations };
}

/** The JSON keeps an exchange's operation as its id, method and path; the reporters take the contract's. */
function exchangeOperations(contract: string): (operationId: string) => Exchange['operation'] {
  if (!(CONTRACT_VERSIONS as readonly string[]).includes(contract)) throw new MergeRefused(`the reports are of contract ${contract}, which this suite does not know`);
  const loaded = loadTargetContract(contract);
  return (operationId) => loaded.operation(operationId);
}

function fromJsonResult(result: JsonCheckResult, operationOf: (operationId: string) => Exchange['operation']): CheckResult {
  return {
    ...result,
    failures: result.failures.map(({ exchange, ...failure }) => {
      if (!exchange) return failure;
      const { operation, ...rest } = exchange;
      const contractOperation = operation ? operationOf(operation.operationId) : undefined;
      // Already redacted: the reporters redact again, which leaves a masked value as it is.
      return { ...failure, exchange: { ...rest, ...(contractOperation ? { operation: contractOperation } : {}) } };
    }),
  };
}

const earliest = (times: string[]) => times.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a));
const latest = (times: string[]) => times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
