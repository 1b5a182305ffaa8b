// spec 8.7 polling guidance, and the terminal states after which a poll has nothing left to learn
// (spec 3.1: COMPLETED and FAILED are terminal; spec 3.2: "Terminal-for-polling states: READY,
// PREVIEW_BLOCKED, FAILED, APPLIED").
import { atMs, followsDelivery, is2xx, isRead, isWrite, label } from '../evidence.js';
import type { ClientRule, Evidence, LoggedRequest } from '../types.js';

/** Clock tolerance of the pace (the log's arrival times, not the client's). */
export const PACE_TOLERANCE_MS = 250;
/** A read this soon after a webhook attempt reached the client is a reaction to it, not a poll. */
export const WAKE_WINDOW_MS = 5000;
/** Reads of a resource allowed after it was seen terminal (a last look, e.g. on its webhook). */
export const READS_AFTER_TERMINAL = 1;

const TERMINAL = new Set(['COMPLETED', 'FAILED', 'READY', 'PREVIEW_BLOCKED', 'APPLIED']);

const statusOf = (r: LoggedRequest): string | undefined => {
  const status = (r.response.body as { status?: unknown } | null)?.status;
  return typeof status === 'string' ? status : undefined;
};

/** The polled resources: paths read at least once with an answer carrying a `status` (a job, a feed session), each with its reads. */
function polled(evidence: Evidence): Map<string, LoggedRequest[]> {
  const byPath = new Map<string, LoggedRequest[]>();
  for (const r of evidence.requests) if (isRead(r)) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  for (const [path, reads] of byPath) if (!reads.some((r) => is2xx(r.status) && statusOf(r) !== undefined)) byPath.delete(path);
  return byPath;
}

export const pollingPace: ClientRule = {
  id: 'polling.pace',
  title: 'Polls are 2 s apart in the first minute, then 5 s',
  spec: 'spec 8.7',
  sentence: 'spec 8.7: "Polling guidance: every 2-3 seconds during the first minute, then every 5-10 seconds with jitter."',
  level: 'required',
  how: `A polled resource is a path read with answers carrying a status (a job, a feed session). Between two reads of it (arrival to arrival), at least 2 s while the first is within 60 s of the first read of the resource, at least 5 s after, less ${PACE_TOLERANCE_MS} ms tolerance. Slower polling is not judged (the guidance bounds the load; a client waiting on webhooks may read less). Not polls: reads within ${WAKE_WINDOW_MS / 1000} s after a webhook attempt reached the client (a reaction to it); not judged: the poll after one answered other than 2xx (a retry, judged by the retry rules). Exercised when a resource was read at least twice.`,
  judge(evidence) {
    const lines: string[] = [];
    const failures: string[] = [];
    let exercised = false;
    for (const [path, reads] of polled(evidence)) {
      if (reads.length < 2) continue;
      exercised = true;
      const first = atMs(reads[0]!);
      let shortest = Infinity;
      // Reactions to a webhook are not polls: the pace is between one poll and the previous poll.
      const polls = reads.filter((r) => !followsDelivery(evidence, r, WAKE_WINDOW_MS));
      for (let i = 1; i < polls.length; i++) {
        const previous = polls[i - 1]!;
        const r = polls[i]!;
        if (!is2xx(previous.status)) continue;
        const gap = atMs(r) - atMs(previous);
        const minimum = atMs(previous) - first < 60_000 ? 2000 : 5000;
        shortest = Math.min(shortest, gap);
        if (gap < minimum - PACE_TOLERANCE_MS) failures.push(`${label(r, evidence.startedAtMs)}: ${(gap / 1000).toFixed(2)} s after ${previous.id} (at least ${minimum / 1000} s ${minimum === 2000 ? 'in the first minute' : 'after the first minute'})`);
      }
      lines.push(`${path}: ${reads.length} reads over ${((atMs(reads[reads.length - 1]!) - first) / 1000).toFixed(1)} s${Number.isFinite(shortest) ? `, shortest poll interval ${(shortest / 1000).toFixed(2)} s` : ''}`);
    }
    return { verdict: !exercised ? 'not exercised' : failures.length ? 'failed' : 'passed', evidence: lines, failures };
  },
};

export const stopsWhenTerminal: ClientRule = {
  id: 'polling.stops-when-terminal',
  title: 'Polling a resource stops once it reads terminal',
  spec: 'spec 3',
  sentence:
    'spec 3.1: COMPLETED and FAILED are "terminal"; spec 3.2: "Terminal-for-polling states: READY, PREVIEW_BLOCKED, FAILED, APPLIED"; spec 1: clients "poll them until they reach a terminal state".',
  level: 'required',
  how: `After a read of a resource answered with a terminal status, at most ${READS_AFTER_TERMINAL} more read of it, until the client writes to it (a request whose path names it, e.g. apply). Reads within ${WAKE_WINDOW_MS / 1000} s after a webhook attempt are reactions to it, not polls. Exercised when a resource read terminal.`,
  judge(evidence) {
    const lines: string[] = [];
    const failures: string[] = [];
    let exercised = false;
    for (const [path, reads] of polled(evidence)) {
      const terminal = reads.find((r) => is2xx(r.status) && TERMINAL.has(statusOf(r) ?? ''));
      if (!terminal) continue;
      exercised = true;
      let since = terminal;
      let after: LoggedRequest[] = [];
      for (const r of evidence.requests) {
        if (atMs(r) <= atMs(since)) continue;
        if (isWrite(r) && r.path.startsWith(path)) {
          // The client moved the resource on (apply...): a new wait may start; find its next terminal read.
          const next = reads.find((x) => atMs(x) > atMs(r) && is2xx(x.status) && TERMINAL.has(statusOf(x) ?? ''));
          if (!next) break;
          since = next;
          after = [];
          continue;
        }
        if (r.path !== path || !isRead(r) || followsDelivery(evidence, r, WAKE_WINDOW_MS)) continue;
        after.push(r);
        if (after.length === READS_AFTER_TERMINAL + 1) failures.push(`${label(r, evidence.startedAtMs)}: read ${after.length} times after ${since.id} answered ${statusOf(since)}`);
      }
      lines.push(`${path}: read ${statusOf(terminal)} at ${label(terminal, evidence.startedAtMs)}`);
    }
    return { verdict: !exercised ? 'not exercised' : failures.length ? 'failed' : 'passed', evidence: lines, failures };
  },
};
