// Each crash point of a compaction (listed in journal-files.ts), rebuilt as the files a SIGKILL leaves
// there: the store loads every acknowledged write and the next start removes the leftovers. The process
// test under real SIGKILLs is simulator/crash.test.ts.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalOf, readJournal, rotatedJournal } from './journal-files.js';
import { openStore, type Store } from './store.js';

type Job = { id: string; status: string };
const tempFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'store-crash-')), 'store.json');
const leftovers = (file: string) => readdirSync(path.dirname(file)).filter((name) => name.endsWith('.old') || name.endsWith('.tmp'));
const seqOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { seq: number }).seq;
const BY_ID = { fields: {}, indexes: { all: { keys: [] } } };

/** What a rotation names a journal: the seq of its last line. */
const rotateAsACrashWould = (file: string) => {
  const { entries } = readJournal(journalOf(file));
  const seq = entries[entries.length - 1]!.s;
  renameSync(journalOf(file), rotatedJournal(journalOf(file), seq));
  return seq;
};

async function putFlushed(store: Store, ...ids: string[]) {
  const jobs = store.collection<Job>('jobs');
  for (const id of ids) await jobs.put({ id, status: 'DONE' });
  await store.flush();
}

async function idsIn(file: string): Promise<string[]> {
  const store = await openStore({ file });
  const ids = (await store.collection<Job>('jobs', BY_ID).query({ where: {} })).items.map((job) => job.id).sort();
  await store.close();
  return ids;
}

describe('the journal store after a crash', () => {
  it('starts the first write after a torn last line on a line of its own, so it survives the next crash too', async () => {
    const file = tempFile();
    await putFlushed(await openStore({ file }), 'a');
    appendFileSync(journalOf(file), '{"s":2,"m":[["jobs","torn",{"id":"to'); // point 1: cut mid-append
    const restarted = await openStore({ file });
    await putFlushed(restarted, 'b'); // acknowledged after the restart, then a second crash (no close)
    expect(await idsIn(file)).toEqual(['a', 'b']);
  });

  it('replays a journal rotated before its snapshot was written, then finishes the rotation at start-up', async () => {
    const file = tempFile();
    const first = await openStore({ file });
    await putFlushed(first, 'a');
    await first.compact();
    await putFlushed(first, 'b', 'c');
    // point 2: the journal was renamed for a rotation, and no new journal or snapshot followed.
    const rotatedAt = rotateAsACrashWould(file);
    writeFileSync(`${file}.999999.tmp`, '{"seq":3,"collections":{"jobs":{'); // point 3: a half-written snapshot

    const restarted = await openStore({ file });
    await putFlushed(restarted, 'd');
    await restarted.close(); // waits for the snapshot the start took
    expect(leftovers(file)).toEqual([]);
    expect(seqOf(file)).toBeGreaterThanOrEqual(rotatedAt);
    expect(await idsIn(file)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('deletes unread a rotated journal the snapshot already covers', async () => {
    const file = tempFile();
    const first = await openStore({ file });
    await putFlushed(first, 'a', 'b');
    await first.compact();
    // point 4: the snapshot at this seq was renamed into place, the rotated journal not yet removed.
    // Its content is garbage: reading it would fail the start.
    writeFileSync(rotatedJournal(journalOf(file), seqOf(file)), 'not a journal\nnot a journal either\n');
    expect(await idsIn(file)).toEqual(['a', 'b']);
    expect(leftovers(file)).toEqual([]);
  });

  it('keeps a rotated journal whose seq an empty new journal would take, until a snapshot covers it', async () => {
    const file = tempFile();
    const first = await openStore({ file });
    await putFlushed(first, 'a', 'b');
    const seq = rotateAsACrashWould(file); // point 2 again, nothing written since
    const restarted = await openStore({ file });
    await restarted.compact(); // at the same seq with an empty journal: no rename onto the rotated one
    await restarted.close();
    expect(leftovers(file)).toEqual([]);
    expect(seqOf(file)).toBe(seq);
    expect(await idsIn(file)).toEqual(['a', 'b']);
  });

  it('journals the pending writes before it rotates, so the snapshot holds no write the journal lacks', async () => {
    const file = tempFile();
    const store = await openStore({ file });
    await putFlushed(store, 'a');
    const compacted = store.compact();
    await store.collection<Job>('jobs').put({ id: 'queued', status: 'DONE' }); // written, never flushed
    await compacted;
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { seq: number; collections: { jobs: Record<string, Job> } };
    expect(Object.keys(snapshot.collections.jobs).sort()).toEqual(['a', 'queued']);
    // The snapshot's seq counts the line that carried 'queued': replay after it adds nothing twice.
    expect(snapshot.seq).toBe(2);
    expect(await idsIn(file)).toEqual(['a', 'queued']);
  });
});
