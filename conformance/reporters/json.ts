// The machine-readable report: the RunReport as the runner returned it, with a schema version, the
// selection of a partial run, secrets masked in the recorded exchanges, and each exchange's contract
// operation reduced to its id, method and path (the full operation object is the contract's, not the run's).
// A shard's report also says which shard it is and lists the whole selection, so that the shards' reports
// can be merged into the report of the whole run (merge.ts).
import type { Shard, SuiteIdentity } from '../harness/shard.js';
import type { CheckResult, Failure, RunReport } from '../harness/types.js';
import { groupFailuresByCause, type FailureCause } from './causes.js';
import { COVERAGE_FILE } from './coverage.js';
import { redactExchange, type RedactedExchange, type RunContext } from './format.js';

/** Bumped when a field changes meaning or disappears; new fields do not bump it. */
export const JSON_REPORT_SCHEMA_VERSION = 1;

type JsonFailure = Omit<Failure, 'exchange'> & { exchange?: RedactedExchange };
export type JsonCheckResult = Omit<CheckResult, 'failures'> & { failures: JsonFailure[] };
export type JsonRunReport = Omit<RunReport, 'results'> & {
  schemaVersion: number;
  only?: string[];
  suite?: SuiteIdentity;
  /** `selectedChecks`: how many checks the whole selection (every shard) has; `selection`: their ids in order. */
  shard?: Shard & { selectedChecks: number; selection: string[] };
  merged?: { shards: number };
  /** The input coverage of the run, written beside this file (coverage.ts), when the operation checks ran. */
  coverageFile?: string;
  /** The failures grouped by cause (causes.ts), most frequent first; every failure itself is under `results`. */
  causes?: FailureCause[];
  results: JsonCheckResult[];
};

export function toJsonReport(report: RunReport, context: RunContext = {}): JsonRunReport {
  return {
    schemaVersion: JSON_REPORT_SCHEMA_VERSION,
    ...report,
    ...(context.only?.length ? { only: context.only } : {}),
    ...(context.suite ? { suite: context.suite } : {}),
    ...(context.shard ? { shard: { index: context.shard.index, count: context.shard.count, selectedChecks: context.shard.selection.length, selection: context.shard.selection } } : {}),
    ...(context.merged ? { merged: context.merged } : {}),
    ...(context.coverage ? { coverageFile: COVERAGE_FILE } : {}),
    ...(report.totals.failed ? { causes: groupFailuresByCause(report.results.filter((result) => result.verdict === 'failed')) } : {}),
    results: report.results.map((result) => ({
      ...result,
      failures: result.failures.map(({ exchange, ...failure }) => ({ ...failure, ...(exchange ? { exchange: redactExchange(exchange) } : {}) })),
    })),
  };
}

export function renderJson(report: RunReport, context: RunContext = {}): string {
  return JSON.stringify(toJsonReport(report, context), null, 2) + '\n';
}
