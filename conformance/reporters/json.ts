// The machine-readable report: the RunReport as the runner returned it, with a schema version, the
// selection of a partial run, secrets masked in the recorded exchanges, and each exchange's contract
// operation reduced to its id, method and path (the full operation object is the contract's, not the run's).
import type { CheckResult, Failure, RunReport } from '../harness/types.js';
import { redactExchange, type RedactedExchange, type RunContext } from './format.js';

/** Bumped when a field changes meaning or disappears; new fields do not bump it. */
export const JSON_REPORT_SCHEMA_VERSION = 1;

export type JsonFailure = Omit<Failure, 'exchange'> & { exchange?: RedactedExchange };
export type JsonCheckResult = Omit<CheckResult, 'failures'> & { failures: JsonFailure[] };
export type JsonRunReport = Omit<RunReport, 'results'> & {
  schemaVersion: number;
  only?: string[];
  results: JsonCheckResult[];
};

export function toJsonReport(report: RunReport, context: RunContext = {}): JsonRunReport {
  return {
    schemaVersion: JSON_REPORT_SCHEMA_VERSION,
    ...report,
    ...(context.only?.length ? { only: context.only } : {}),
    results: report.results.map((result) => ({
      ...result,
      failures: result.failures.map(({ exchange, ...failure }) => ({ ...failure, ...(exchange ? { exchange: redactExchange(exchange) } : {}) })),
    })),
  };
}

export function renderJson(report: RunReport, context: RunContext = {}): string {
  return JSON.stringify(toJsonReport(report, context), null, 2) + '\n';
}
