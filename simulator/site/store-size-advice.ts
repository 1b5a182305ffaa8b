// What a start tells the user when the journal store took long to load. The journal store holds every
// record in memory and reads them all at start (kernel/store/store.ts), so its restart grows with the store
// (README, restart figures: about 14 s at 400 MB on the reference machine); the on-disk store (the default,
// SIM_DB) and the PostgreSQL store read no record at start (issue 30 item 4). The advice names the measured
// time and size and the way out.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { journalOf, rotatedJournals } from '../kernel/store/journal-files.js';

/** Loads slower than this are worth a word: past it a restart after a crash keeps integrators waiting. */
export const SLOW_LOAD_MS = 2000;

/** Bytes of the journal store's files: the snapshot, the journal and any rotated journal. */
export function journalStoreBytes(snapshot: string): number {
  const journal = journalOf(snapshot);
  const rotated = existsSync(path.dirname(snapshot)) ? rotatedJournals(journal).map((r) => r.file) : [];
  const files = [snapshot, journal, ...rotated];
  return files.reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);
}

/** The advice for a load of `loadMs`, or null when the load was quick; the store's size (`storeBytes`, a
 *  directory listing) is looked at only then, not on every start. */
export function slowLoadAdvice(loadMs: number, storeBytes: () => number): string | null {
  if (loadMs < SLOW_LOAD_MS) return null;
  const mb = (storeBytes() / 2 ** 20).toFixed(0);
  return `the store (${mb} MB of files) took ${(loadMs / 1000).toFixed(1)} s to load: the journal store reads every record at start, so a restart takes about as long; a sandbox this size belongs on the on-disk store, which reads none: start without SIM_STORE=journal (SIM_DB=FILE for its file; it starts empty), or on PostgreSQL (SIM_STORE=local or SIM_STORE=postgres://...)`;
}

/** The notice of a start on the default on-disk store beside the journal store an earlier version left at its
 *  default path: that start is empty, and the earlier records are one setting away. Null when there is none. */
export function earlierStoreNotice(dbPath: string, defaults: { db: string; journal: string }): string | null {
  if (path.resolve(dbPath) !== path.resolve(defaults.db)) return null;
  const earlier = path.resolve(defaults.journal);
  if (!existsSync(earlier) && !existsSync(journalOf(earlier))) return null;
  return `the store of an earlier version (the journal store) is at ${defaults.journal}; this sandbox uses the on-disk store at ${defaults.db}: to start on the earlier records instead, SIM_STORE=journal`;
}
