import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { earlierStoreNotice, journalStoreBytes, slowLoadAdvice, SLOW_LOAD_MS } from './store-size-advice.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'store-advice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the advice a slow journal store load gives', () => {
  it('says nothing about a load under two seconds', () => {
    const sizeUnread = () => {
      throw new Error('the size is not looked at for a quick load');
    };
    expect(slowLoadAdvice(SLOW_LOAD_MS - 1, sizeUnread)).toBeNull();
  });

  it('names the time, the size and the PostgreSQL store past it', () => {
    const advice = slowLoadAdvice(14_200, () => 406 * 2 ** 20);
    expect(advice).toContain('406 MB');
    expect(advice).toContain('14.2 s');
    expect(advice).toContain('SIM_STORE=postgres://');
    expect(advice).toContain('SIM_STORE=local');
    expect(advice).toContain('start without SIM_STORE=journal');
  });

  it('counts the snapshot, the journal and the rotated journals of a store', () => {
    const snapshot = path.join(dir, 'store.json');
    writeFileSync(snapshot, 'x'.repeat(100));
    writeFileSync(`${snapshot}.journal`, 'x'.repeat(20));
    writeFileSync(`${snapshot}.journal.7.old`, 'x'.repeat(3));
    writeFileSync(path.join(dir, 'other.json'), 'x'.repeat(1000));
    expect(journalStoreBytes(snapshot)).toBe(123);
    expect(journalStoreBytes(path.join(dir, 'absent', 'store.json'))).toBe(0);
  });
});

describe("the notice of a start beside an earlier version's store", () => {
  const defaults = (dir: string) => ({ db: path.join(dir, 'store.mdb'), journal: path.join(dir, 'store.json') });

  it('names the journal store left at its default path and the setting that starts on it, only on the default on-disk store', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'earlier-store-'));
    expect(earlierStoreNotice(defaults(dir).db, defaults(dir))).toBeNull();
    writeFileSync(`${defaults(dir).journal}.journal`, '');
    expect(earlierStoreNotice(defaults(dir).db, defaults(dir))).toContain('SIM_STORE=journal');
    expect(earlierStoreNotice(path.join(dir, 'elsewhere.mdb'), defaults(dir))).toBeNull();
  });
});
