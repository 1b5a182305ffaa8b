// What the proxy saw, as the suite's run report (conformance/harness/types.ts RunReport), so that the suite's
// own reporters write it: HTML, JSON and JUnit. One result per operation of the contract: failed with its
// violations, passed when exchanges went through without one, skipped when none did; and one result for
// requests to no operation of the contract, when there were any (with their envelope violations).
import { listOperations } from '../contracts/lib/operations.js';
import type { LoadedContract } from '../conformance/harness/contract.js';
import { totalsOf, type CheckResult, type Exchange, type Profile, type RunReport } from '../conformance/harness/types.js';
import type { Violation } from './proxy.js';

export const UNDOCUMENTED_ID = 'proxy.undocumented-operations';

export interface ProxyRun {
  upstream: string;
  contract: LoadedContract;
  profile: Profile;
  startedAt: Date;
  finishedAt: Date;
  exchanges: Exchange[];
  violations: Violation[];
  /** The command line that starts this proxy again (the reports' "replay"). */
  replay: string;
}

function resultOf(id: string, title: string, area: string, exchanges: Exchange[], violations: Violation[]): CheckResult {
  return {
    id,
    title,
    area,
    verdict: violations.length ? 'failed' : exchanges.length ? 'passed' : 'skipped',
    ...(exchanges.length ? {} : { reason: 'no request for it went through the proxy' }),
    failures: violations.map(({ rule, message, exchange }) => ({ rule, message, exchange })),
    durationMs: Math.round(exchanges.reduce((sum, e) => sum + e.durationMs, 0)),
    requests: exchanges.length,
  };
}

export function proxyRunReport(run: ProxyRun): RunReport {
  const results: CheckResult[] = listOperations(run.contract.doc).map((op) =>
    resultOf(
      `proxy.${op.operationId}`,
      `${op.method.toUpperCase()} ${op.path} (${op.operationId}): every exchange through the proxy conforms`,
      op.tags[0] ?? 'operations',
      run.exchanges.filter((e) => e.operation?.operationId === op.operationId),
      run.violations.filter((v) => v.operationId === op.operationId),
    ),
  );
  const undocumented = run.exchanges.filter((e) => !e.operation);
  if (undocumented.length) {
    results.push(resultOf(UNDOCUMENTED_ID, `Requests to no operation of contract ${run.contract.version}`, 'undocumented', undocumented, run.violations.filter((v) => v.operationId === undefined)));
  }
  return {
    target: { baseUrl: run.upstream, contract: run.contract.version, profile: run.profile, seed: 0, runs: 0 },
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt.toISOString(),
    results,
    totals: totalsOf(results),
    replay: run.replay,
  };
}
