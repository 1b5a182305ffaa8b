// The input coverage of a run (issue 14 item 2, issue 26 item 6): per operation, each constraint of its inputs
// (field, kind: pattern / bound edge / enum value / optional presence / normalization rule / invalid-of-constraint),
// how many of the requests the operation checks sent exercised it, and for every constraint not exercised,
// why (`reason`, its cause the text before the first colon). Filled by send.ts from what was sent and how it
// was answered, per run (keyed by the run's options object, which the runner hands to every check). A request
// still answered 429 exercised nothing: it is counted as rate limited, not as exercised.
import type { LoadedContract } from '../../harness/contract.js';
import { loadTargetContract } from '../../harness/contract.js';
import type { Profile, TargetOptions } from '../../harness/types.js';
import { constraintsOf, type Constraint, type ConstraintKind } from './coverage-constraints.js';
import { coveringRequests } from './covering-requests.js';
import { isRead, operationInputs } from './inputs.js';
import { constraintKey, negativeCases, type DroppedCase } from './negative-cases.js';
import { prepare, type Prepared, type RequestSpec } from './requests.js';

interface ConstraintCoverage {
  input: string;
  kind: ConstraintKind;
  detail: string;
  exercised: boolean;
  /** Requests that exercised it (answered other than 429). */
  count: number;
  /** Requests that would have exercised it but were still answered 429 (rate limited). */
  rateLimited?: number;
  /** Why it is never exercised by the operation checks (not generated, or owned by another check). */
  note?: string;
  /** Given whenever `exercised` is false: why not, in this run. Its cause is the text before the first colon. */
  reason?: string;
}

export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  /** Requests the operation checks sent to it. */
  requests: number;
  note?: string;
  constraints: ConstraintCoverage[];
}

export interface CoverageTotals {
  constraints: number;
  exercised: number;
  notExercised: number;
  /** Constraints not exercised, per cause (`not generated`, `not sendable`, `sandbox-defined`, `rate limited`, ...). */
  notExercisedBy: Record<string, number>;
}

export interface CoverageReport {
  contract: string;
  /** The run's profile and seed, when the coverage is a run's. */
  profile?: Profile;
  seed?: number;
  totals: CoverageTotals;
  operations: OperationCoverage[];
}

/** A request an operation check sent, with the status of its last answer. */
export interface SentRequest {
  spec: RequestSpec;
  status: number;
}

/** What each run sent, per operationId. */
const sentByRun = new WeakMap<object, Map<string, SentRequest[]>>();

export function recordSent(run: object, operationId: string, spec: RequestSpec, status = 200): void {
  let sent = sentByRun.get(run);
  if (!sent) sentByRun.set(run, (sent = new Map()));
  const list = sent.get(operationId) ?? [];
  list.push({ spec, status });
  sent.set(operationId, list);
}

/** The coverage of a run, or undefined when no operation check sent anything in it. */
export function coverageOfRun(options: TargetOptions): CoverageReport | undefined {
  const sent = sentByRun.get(options);
  return sent ? coverageOf(loadTargetContract(options.contract), sent, { profile: options.profile, seed: options.seed }) : undefined;
}

const MULTIPART_NOTE = 'file parts are not generated: the upload checks own them (conformance/checks/uploads)';

/** The cause of a reason: the text before its first colon. */
export const causeOf = (reason: string) => reason.split(':')[0]!;

export function coverageTotals(operations: readonly OperationCoverage[]): CoverageTotals {
  const all = operations.flatMap((o) => o.constraints);
  const notExercisedBy: Record<string, number> = {};
  for (const c of all) if (!c.exercised) notExercisedBy[causeOf(c.reason ?? 'unexplained')] = (notExercisedBy[causeOf(c.reason ?? 'unexplained')] ?? 0) + 1;
  const exercised = all.filter((c) => c.exercised).length;
  return { constraints: all.length, exercised, notExercised: all.length - exercised, notExercisedBy };
}

/** The coverage of the contract's operations by these sent requests (bare specs count as answered 200). */
export function coverageOf(contract: LoadedContract, sent: ReadonlyMap<string, readonly (SentRequest | RequestSpec)[]>, run: { profile?: Profile; seed?: number } = {}): CoverageReport {
  const operations = contract.operations.map((op): OperationCoverage => {
    const inputs = operationInputs(contract.doc, op);
    const prepared = prepare(contract, inputs, run.seed ?? 0);
    const all = (sent.get(op.operationId) ?? []).map((item) => ('spec' in item ? item : { spec: item, status: 200 }));
    const answered = all.filter((item) => item.status !== 429).map((item) => item.spec);
    const limited = all.filter((item) => item.status === 429).map((item) => item.spec);
    const why = reasons(contract, prepared, run, all.length);
    const constraints = constraintsOf(contract, prepared).map(({ hit, ...constraint }) => {
      const count = answered.filter(hit).length;
      const rateLimited = limited.filter(hit).length;
      const exercised = count > 0;
      return { ...constraint, exercised, count, ...(rateLimited ? { rateLimited } : {}), ...(exercised ? {} : { reason: why({ ...constraint, hit }, rateLimited) }) };
    });
    return { operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, requests: all.length, note: inputs.body?.multipart ? MULTIPART_NOTE : undefined, constraints };
  });
  return { contract: contract.version, ...(run.profile ? { profile: run.profile } : {}), ...(run.seed !== undefined ? { seed: run.seed } : {}), totals: coverageTotals(operations), operations };
}

export const REASONS = {
  notRun: (readonlyWrite: boolean) =>
    `not run: the operation's checks sent no request in this run (${readonlyWrite ? 'the readonly profile sends no writes' : 'not selected, skipped, or stopped before any request'})`,
  rateLimited: (n: number) => `rate limited: sent ${n} time${n === 1 ? '' : 's'}, every answer 429 (the server's limits; see the report)`,
  sandboxDefined: 'sandbox-defined: the input is marked x-sandbox-defined, so its invalid side is asserted only in the simulator profile',
  stoppedInvalid: 'stopped early: the check stopped before sending it (its valid baseline was not served; see the report)',
  stoppedValid: 'stopped early: its covering request was not sent (the check stopped at an answer it failed; see the report)',
  noVariant: 'not generated: the mutation makes no such invalid value for this seed',
  noValidRequest: 'not generated: no valid request carries this value next to the example\'s other inputs (the schema or a spec rule refuses the combination, or a form cannot carry it)',
};

/** Why a constraint of this operation was not exercised, in this run (static notes first). */
function reasons(contract: LoadedContract, prepared: Prepared, run: { profile?: Profile; seed?: number }, sentCount: number) {
  const seed = run.seed ?? 0;
  // Computed only when a constraint needs them: what the generators can send at all, with the run's seed.
  let negative: { keys: Map<string, boolean>; dropped: DroppedCase[] } | undefined;
  let covering: RequestSpec[] | undefined;
  const negativeOf = () => {
    if (!negative) {
      const dropped: DroppedCase[] = [];
      const keys = new Map<string, boolean>();
      for (const item of negativeCases(contract, prepared, seed, dropped)) keys.set(constraintKey(item), (keys.get(constraintKey(item)) ?? true) && item.spec.sandboxDependent);
      negative = { keys, dropped };
    }
    return negative;
  };
  return (constraint: Constraint, rateLimited: number): string => {
    // A request that would have exercised it was answered 429: that, not a static note, is why here.
    if (rateLimited > 0) return REASONS.rateLimited(rateLimited);
    if (constraint.note) return constraint.note;
    if (sentCount === 0) return REASONS.notRun(run.profile === 'readonly' && !isRead(prepared.inputs.op) && prepared.inputs.auth === 'bearer');
    if (constraint.kind === 'invalid') {
      const target = constraint.input.slice(constraint.input.indexOf(' ') + 1);
      const key = `${target} ${constraint.detail}`;
      const { keys, dropped } = negativeOf();
      const sandboxOnly = keys.get(key);
      if (sandboxOnly === undefined) return dropped.find((d) => `${d.target} ${d.kind}` === key)?.reason ?? REASONS.noVariant;
      if (sandboxOnly && run.profile !== 'simulator') return REASONS.sandboxDefined;
      return REASONS.stoppedInvalid;
    }
    covering ??= coveringRequests(contract, prepared, prepared.examplePath, seed);
    return covering.some(constraint.hit) ? REASONS.stoppedValid : REASONS.noValidRequest;
  };
}
