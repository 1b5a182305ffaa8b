// The journal store's files and their recovery after a crash. Beside the snapshot `store.json` live:
//   store.json.journal        the active journal, one JSON line per group commit ({ s: seq, m: mutations })
//   store.json.journal.N.old  a journal rotated at seq N, waiting for a snapshot at seq >= N to cover it
//   store.json.PID.tmp        a snapshot being written by process PID (renamed over store.json when whole)
//
// Crash points of a compaction (store.ts `compact`) and what the next start does with each:
//   1. mid-append, before rotation: the active journal ends in a torn line, never acknowledged. It is cut
//      off (truncated to the last newline), else the next append would glue a good line onto it.
//   2. after the journal is renamed to N.old, before the new journal exists: N.old is replayed (N > the
//      snapshot's seq); a fresh journal is created.
//   3. while the snapshot's temp file is written: the temp file is removed; the previous snapshot is intact
//      (it is only ever replaced by a rename), N.old is replayed, and the rotation is finished by a new
//      snapshot taken at start-up.
//   4. after the snapshot's rename, before N.old is removed: N <= the snapshot's seq, so N.old is covered
//      and deleted unread.
// Renames and creations are made durable with an fsync of the directory, so the same holds after a power
// cut, not only after a SIGKILL (whose writes the kernel keeps anyway).
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { StoredRecord } from './collection.js';

export type Mutation = [collection: string, id: string, record: StoredRecord | null];
export interface JournalEntry {
  s: number;
  m: Mutation[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const journalOf = (snapshot: string) => `${snapshot}.journal`;
export const rotatedJournal = (journal: string, seq: number) => `${journal}.${seq}.old`;
export const snapshotTemp = (snapshot: string) => `${snapshot}.${process.pid}.tmp`;

/** Rotated journals of `journal`, oldest first. */
export function rotatedJournals(journal: string): Array<{ file: string; seq: number }> {
  const dir = path.dirname(journal);
  const pattern = new RegExp(`^${escape(path.basename(journal))}\\.(\\d+)\\.old$`);
  return readdirSync(dir)
    .map((name) => pattern.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ file: path.join(dir, m[0]), seq: Number(m[1]) }))
    .sort((a, b) => a.seq - b.seq);
}

/** Snapshot temp files left by any process (a crash while writing a snapshot, point 3). */
function snapshotTemps(snapshot: string): string[] {
  const dir = path.dirname(snapshot);
  const pattern = new RegExp(`^${escape(path.basename(snapshot))}\\.\\d+\\.tmp$`);
  return readdirSync(dir)
    .filter((name) => pattern.test(name))
    .map((name) => path.join(dir, name));
}

/**
 * A journal's entries in order, and how many bytes of it are whole lines. Only the last line may be torn
 * (a crash mid-append, never acknowledged): it is left out. A bad line before it is corruption.
 */
export function readJournal(file: string): { entries: JournalEntry[]; wholeBytes: number } {
  const bytes = readFileSync(file);
  const entries: JournalEntry[] = [];
  let start = 0;
  let wholeBytes = 0;
  let line = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(10, start);
    line += 1;
    if (end < 0) break; // no newline: the append was cut off
    const text = bytes.toString('utf8', start, end);
    start = end + 1;
    if (!text.trim()) {
      wholeBytes = start;
      continue;
    }
    try {
      entries.push(JSON.parse(text) as JournalEntry);
      wholeBytes = start;
    } catch (error) {
      if (start < bytes.length) throw new Error(`journal ${file} is corrupt at line ${line}: ${(error as Error).message}`);
    }
  }
  return { entries, wholeBytes };
}

export interface RecoveredJournals {
  /** Journals to replay over the snapshot, in order (rotated ones first, then the active one). */
  replay: string[];
  /** Whether a rotation was cut off before its snapshot (point 2 or 3): a snapshot should finish it. */
  halfRotation: boolean;
  /** Files removed because a snapshot covers them or a crash left them half-written. */
  removed: string[];
}

/**
 * Puts a store's files back into a loadable state after any crash (points 2 to 4 above; point 1 is
 * `cutTornTail`, once the active journal has been read for replay).
 */
export function recoverJournals(snapshot: string, snapshotSeq: number): RecoveredJournals {
  const journal = journalOf(snapshot);
  const removed: string[] = [...snapshotTemps(snapshot)];
  const replay: string[] = [];
  for (const rotated of rotatedJournals(journal)) {
    if (rotated.seq <= snapshotSeq) removed.push(rotated.file);
    else replay.push(rotated.file);
  }
  for (const file of removed) rmSync(file, { force: true });
  if (removed.length > 0) fsyncDirSync(path.dirname(snapshot));
  const halfRotation = replay.length > 0;
  if (existsSync(journal)) replay.push(journal);
  return { replay, halfRotation, removed };
}

/** Point 1: cuts a torn last line off the active journal, so the next append starts on a line of its own. */
export function cutTornTail(journal: string, wholeBytes: number): boolean {
  if (statSync(journal).size <= wholeBytes) return false;
  truncateSync(journal, wholeBytes);
  fsyncFile(journal);
  return true;
}

/** fsync of a file (opened for writing) or of a directory (opened read-only, the only way Linux allows). */
function fsyncPath(target: string, flags: 'r+' | 'r'): void {
  const fd = openSync(target, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
const fsyncFile = (file: string) => fsyncPath(file, 'r+');
const fsyncDirSync = (dir: string) => fsyncPath(dir, 'r');

/** Makes renames, creations and removals in `dir` durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
