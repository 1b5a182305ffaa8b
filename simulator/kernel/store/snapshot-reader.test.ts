import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredRecord } from './collection.js';
import { SnapshotFile } from './snapshot-file.js';
import { readSnapshot } from './snapshot-reader.js';

const dir = () => mkdtempSync(path.join(os.tmpdir(), 'snapshot-reader-'));
const plain = (collections: Map<string, Map<string, StoredRecord>>) => Object.fromEntries([...collections].map(([name, records]) => [name, Object.fromEntries(records)]));

describe('reading a snapshot back', () => {
  it('gives back every collection and record the writer wrote, empty collections and awkward text included', async () => {
    const file = path.join(dir(), 'store.json');
    const awkward = { id: 'a"}\n,{', note: '}}},\n"x":{', nested: { list: [{}, { deeper: {} }] }, text: 'ünï ✓' };
    const collections = new Map<string, Map<string, StoredRecord>>([
      ['jobs', new Map([['j1', { id: 'j1', status: 'DONE' }], ['j2', { id: 'j2', nested: { a: {} } }]])],
      ['empty', new Map()],
      ['odd "name"', new Map([[awkward.id, awkward]])],
      ['last-empty', new Map()],
    ]);
    await new SnapshotFile(file).writeImage({ seq: 42, collections: [...collections].map(([n, r]) => [n, [...r.values()]] as const) });
    // The layout read line by line: one record per line.
    expect(readFileSync(file, 'utf8').split('\n').length).toBeGreaterThanOrEqual(7);
    const read = await readSnapshot(file);
    expect(read?.seq).toBe(42);
    expect(plain(read!.collections)).toEqual(plain(collections));
  });

  it('reads an empty store, a one-line document in lowdb’s own layout, and no file as no snapshot', async () => {
    const d = dir();
    const empty = path.join(d, 'empty.json');
    await new SnapshotFile(empty).writeImage({ seq: 0, collections: [] });
    expect(await readSnapshot(empty)).toEqual({ seq: 0, collections: new Map() });
    const oneLine = path.join(d, 'one-line.json');
    writeFileSync(oneLine, JSON.stringify({ seq: 3, collections: { keys: { k: { id: 'k' } } } }));
    expect(plain((await readSnapshot(oneLine))!.collections)).toEqual({ keys: { k: { id: 'k' } } });
    expect(await readSnapshot(path.join(d, 'absent.json'))).toBeNull();
  });

  it('refuses a damaged snapshot naming the file and the line, instead of opening a store with records missing', async () => {
    const file = path.join(dir(), 'store.json');
    await new SnapshotFile(file).writeImage({ seq: 5, collections: [['jobs', [{ id: 'j1' }, { id: 'j2' }]]] });
    writeFileSync(file, readFileSync(file, 'utf8').replace('{"id":"j1"}', '{"id":"j1'));
    await expect(readSnapshot(file)).rejects.toThrow(/store\.json could not be read: line 3 holds no record/);
  });
});
