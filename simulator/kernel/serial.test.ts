import { describe, expect, it } from 'vitest';
import { keyedSerial } from './serial.js';

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
