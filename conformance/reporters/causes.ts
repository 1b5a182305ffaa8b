// Failures grouped by cause: a server that answers 501 to every operation fails ninety checks with one
// message, and ninety copies of it hide the one failure that differs. A cause is the rule broken, the
// status answered and the message with what varies from request to request blanked out: ids, timestamps,
// and the operation itself, so that "the same rule broken the same way on N operations" is one cause that
// names its N operations. The console and the top of the HTML report show causes; the per-check detail of
// the HTML report is capped, and report.json keeps every failure in full.
import type { CheckResult, Failure } from '../harness/types.js';

export interface FailureCause {
  rule: string;
  /** The first message of the group, as it was (the others differ only in ids, timestamps and operation). */
  message: string;
  /** Status of the first failure's response, when it had one. */
  status?: number;
  /** How many failures share this cause (a check may fail the same way more than once). */
  count: number;
  /** The checks that failed this way, in run order, each once. */
  checkIds: string[];
  /** The contract operations the failures were seen on, in order of first appearance, each once. */
  operations: string[];
}

const VARYING: ReadonlyArray<[RegExp, string]> = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  // Opaque ids and tokens: long runs of letters and digits with at least one digit (job_3f9c..., snap_...).
  [/\b(?=[A-Za-z_]*\d)[A-Za-z0-9_]{16,}\b/g, '<id>'],
  // Array indexes in a JSON path: the same field broken in item 2 or item 5 of a page is one cause.
  [/\[\d+\]/g, '[n]'],
];

/** The operation a failure was seen on: its exchange's, else the operation id a message starts with
 *  (`listJobs: status 500 is not documented`, the client's response-conformance form). */
export function operationOf(failure: Failure): string | undefined {
  return failure.exchange?.operation?.operationId ?? /^([a-z]+[A-Z][A-Za-z0-9]*): /.exec(failure.message)?.[1];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The cause of one failure: its rule, its status, and its message with the varying parts and its operation blanked. */
export function causeKey(failure: Failure): string {
  let message = failure.message;
  const operation = operationOf(failure);
  if (operation) message = message.replace(new RegExp(`\\b${escapeRegExp(operation)}\\b`, 'g'), '<operation>');
  for (const [pattern, placeholder] of VARYING) message = message.replace(pattern, placeholder);
  return `${failure.rule}\u0000${failure.exchange?.response.status ?? ''}\u0000${message}`;
}

/** Every failure of the run grouped by cause, the most frequent first (ties in order of first appearance). */
export function groupFailuresByCause(results: CheckResult[]): FailureCause[] {
  const groups = new Map<string, FailureCause & { first: number }>();
  for (const result of results) {
    for (const failure of result.failures) {
      const key = causeKey(failure);
      let group = groups.get(key);
      if (!group) {
        group = { rule: failure.rule, message: failure.message, status: failure.exchange?.response.status, count: 0, checkIds: [], operations: [], first: groups.size };
        groups.set(key, group);
      }
      group.count++;
      if (!group.checkIds.includes(result.id)) group.checkIds.push(result.id);
      const operation = operationOf(failure);
      if (operation && !group.operations.includes(operation)) group.operations.push(operation);
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || a.first - b.first).map(({ first: _first, ...cause }) => cause);
}
