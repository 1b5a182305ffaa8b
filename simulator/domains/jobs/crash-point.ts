// SIM_CRASH_AT (testing only; off unless set): the process SIGKILLs itself at one moment of one kind of job,
// everything it wrote before that moment made durable first. The resume crash test
// (simulator/job-resume.crash.test.ts) uses it to land a real SIGKILL inside a processor's run, which an
// outside kill cannot aim at: a 100-item classification batch runs in a few milliseconds. Two moments:
//   <kind>@progress:<N>  the first progress report of at least N % (the run's domain writes so far stored)
//   <kind>@settled       the processor returned (its domain work done), before its verdict is saved
// <kind> is a job type, or type/variant for the kinds sharing a public type (catalog_upload/trade_feed_preview).
import type { JobRecord } from './jobs.types.js';

export type CrashPoint = { kind: string; at: 'settled' } | { kind: string; at: 'progress'; percent: number };

const FORM = /^([a-z_]+(?:\/[a-z_]+)?)@(settled|progress:(\d{1,3}))$/;

/** The crash point SIM_CRASH_AT names, null when unset; throws on a value of another form. */
export function parseCrashPoint(text: string | null | undefined): CrashPoint | null {
  if (text === null || text === undefined || text.trim() === '') return null;
  const match = FORM.exec(text.trim());
  if (!match) throw new Error(`SIM_CRASH_AT must be <jobType>[/<variant>]@settled or <jobType>[/<variant>]@progress:<percent>, not ${text}`);
  return match[2] === 'settled' ? { kind: match[1], at: 'settled' } : { kind: match[1], at: 'progress', percent: Number(match[3]) };
}

/** Whether a job of this kind is at the crash point: settled, or reporting `percent` of progress. */
export function atCrashPoint(point: CrashPoint | null, job: Pick<JobRecord, 'type' | 'variant'>, moment: { settled: true } | { percent: number }): boolean {
  if (!point || point.kind !== (job.variant ? `${job.type}/${job.variant}` : job.type)) return false;
  return point.at === 'settled' ? 'settled' in moment : 'percent' in moment && moment.percent >= point.percent;
}
