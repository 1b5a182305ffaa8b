// The input coverage of a run (issue 14 item 2): per operation, each constraint of its inputs (field, kind:
// pattern / bound edge / enum value / optional presence / normalization rule / invalid-of-constraint), how
// many of the requests the operation checks actually sent exercised it. Filled by send.ts from what was sent,
// per run (keyed by the run's options object, which the runner hands to every check).
import type { LoadedContract } from '../../harness/contract.js';
import { loadTargetContract } from '../../harness/contract.js';
import type { TargetOptions } from '../../harness/types.js';
import { constraintsOf, type ConstraintKind } from './coverage-constraints.js';
import { operationInputs } from './inputs.js';
import { prepare, type RequestSpec } from './requests.js';

interface ConstraintCoverage {
  input: string;
  kind: ConstraintKind;
  detail: string;
  exercised: boolean;
  /** Requests that exercised it. */
  count: number;
  note?: string;
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

export interface CoverageReport {
  contract: string;
  totals: { constraints: number; exercised: number };
  operations: OperationCoverage[];
}

/** What each run sent, per operationId. */
const sentByRun = new WeakMap<object, Map<string, RequestSpec[]>>();

export function recordSent(run: object, operationId: string, spec: RequestSpec): void {
  let sent = sentByRun.get(run);
  if (!sent) sentByRun.set(run, (sent = new Map()));
  const list = sent.get(operationId) ?? [];
  list.push(spec);
  sent.set(operationId, list);
}

/** The coverage of a run, or undefined when no operation check sent anything in it. */
export function coverageOfRun(options: TargetOptions): CoverageReport | undefined {
  const sent = sentByRun.get(options);
  return sent ? coverageOf(loadTargetContract(options.contract), sent) : undefined;
}

const MULTIPART_NOTE = 'file parts are not generated: the upload checks own them (conformance/checks/uploads)';

/** The coverage of the contract's operations by these sent requests. */
export function coverageOf(contract: LoadedContract, sent: ReadonlyMap<string, readonly RequestSpec[]>): CoverageReport {
  const operations = contract.operations.map((op): OperationCoverage => {
    const inputs = operationInputs(contract.doc, op);
    const prepared = prepare(contract, inputs, 0);
    const specs = sent.get(op.operationId) ?? [];
    const constraints = constraintsOf(contract, prepared).map(({ hit, ...constraint }) => {
      const count = specs.filter(hit).length;
      return { ...constraint, exercised: count > 0, count };
    });
    return { operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, requests: specs.length, note: inputs.body?.multipart ? MULTIPART_NOTE : undefined, constraints };
  });
  const all = operations.flatMap((o) => o.constraints);
  return { contract: contract.version, totals: { constraints: all.length, exercised: all.filter((c) => c.exercised).length }, operations };
}
