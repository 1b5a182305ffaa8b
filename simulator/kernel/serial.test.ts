import { describe, expect, it } from 'vitest';
import { memoryShared } from '../testing/memory-shared.js';
import { keyedSerial, storeSerial } from './serial.js';
import { openStore } from './store/store.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('keyed serial lanes', () => {
  it('runs the tasks of one key one after another, in call order', async () => {
    const serial = keyedSerial();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    expect(await Promise.all([serial('t', task('a')), serial('t', task('b'))])).toEqual(['a', 'b']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  it('runs different keys side by side, and goes on after a failed task', async () => {
    const serial = keyedSerial();
    const log: string[] = [];
    const slow = serial('x', async () => {
      await tick();
      await tick();
      log.push('x');
    });
    await serial('y', async () => void log.push('y'));
    await slow;
    expect(log).toEqual(['y', 'x']);
    await expect(serial('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await serial('x', async () => 'after')).toBe('after');
  });
});

describe('store serial lanes', () => {
  /** Two tasks of key `t` started at once on `a` and `b`: the order their steps ran in. */
  async function interleaving(a: ReturnType<typeof storeSerial>, b: ReturnType<typeof storeSerial>) {
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      await tick();
      log.push(`${name} end`);
    };
    await Promise.all([a('t', task('a')), b('t', task('b'))]);
    return log;
  }

  it('runs the tasks of one key one after another across instances sharing the store', async () => {
    const shared = memoryShared(await openStore());
    const lanes = ['one', 'two'].map((id) => storeSerial(shared.instance(id), 'admission'));
    expect(await interleaving(lanes[0]!, lanes[1]!)).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  it('runs them one after another within a process on a store it owns (where nobody else could take them)', async () => {
    const lane = storeSerial(await openStore(), 'admission');
    expect(await interleaving(lane, lane)).toEqual(['a start', 'a end', 'b start', 'b end']);
    // Two lanes over a store one process owns do not know of each other: that is what `shared` is for.
    const [x, y] = [storeSerial(await openStore(), 'admission'), storeSerial(await openStore(), 'admission')];
    expect(await interleaving(x, y)).toEqual(['a start', 'b start', 'a end', 'b end']);
  });
});
