import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClock, createScheduler, createTenantClocks, type Scheduler, type TenantClocks } from './clock.js';

const T0 = Date.parse('2026-11-02T14:00:00.000Z');
const MINUTE = 60_000;
const A = '0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c';
const B = '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

// Real time frozen at T0 unless a test moves it: only the virtual offsets change what is due.
const frozen = () => {
  let real = T0;
  const clocks = createTenantClocks(createClock({ realNow: () => real }));
  return { clocks, passRealTime: (ms: number) => void (real += ms) };
};

const schedulers: Scheduler[] = [];
const schedulerFor = (clocks: Parameters<typeof createScheduler>[0], onError?: (error: unknown) => void) => {
  const scheduler = createScheduler(clocks, onError);
  schedulers.push(scheduler);
  return scheduler;
};
afterEach(() => {
  for (const scheduler of schedulers.splice(0)) scheduler.stop();
});

/** Records which tasks ran, in order. */
const recorder = () => {
  const ran: string[] = [];
  return { ran, task: (name: string) => () => void ran.push(name) };
};

describe('tenant clocks', () => {
  it('follow the sandbox clock until advanced on their own', () => {
    const { clocks, passRealTime } = frozen();
    const a = clocks.of(A);
    expect(a.now()).toBe(T0);
    clocks.sandbox.advance(5 * MINUTE);
    passRealTime(1000);
    expect(a.now()).toBe(T0 + 5 * MINUTE + 1000);
    expect(a.offsetMs()).toBe(5 * MINUTE);
    expect(a.nowIso()).toBe('2026-11-02T14:05:01.000Z');
    expect(clocks.tenantOffsets()).toEqual({});
  });

  it('give the same clock object for the same tenant', () => {
    const { clocks } = frozen();
    expect(clocks.of(A)).toBe(clocks.of(A));
    expect(clocks.of(A)).not.toBe(clocks.of(B));
  });

  it('move only tenant A when A is advanced', () => {
    const { clocks } = frozen();
    const [a, b] = [clocks.of(A), clocks.of(B)];
    a.advance(60 * MINUTE);
    expect(a.now()).toBe(T0 + 60 * MINUTE);
    expect(a.offsetMs()).toBe(60 * MINUTE);
    expect(b.now()).toBe(T0);
    expect(clocks.sandbox.now()).toBe(T0);
    expect(clocks.tenantOffsets()).toEqual({ [A]: 60 * MINUTE });
  });

  it('add a tenant offset on top of later sandbox advances', () => {
    const { clocks } = frozen();
    clocks.of(A).advance(MINUTE);
    clocks.sandbox.advance(2 * MINUTE);
    expect(clocks.of(A).now()).toBe(T0 + 3 * MINUTE);
    expect(clocks.of(A).offsetMs()).toBe(3 * MINUTE);
    expect(clocks.of(B).now()).toBe(T0 + 2 * MINUTE);
    expect(clocks.tenantOffsets()).toEqual({ [A]: MINUTE });
  });

  it('tell a tenant clock listener about sandbox advances and its own, not about other tenants', () => {
    const { clocks } = frozen();
    const heard = vi.fn();
    clocks.of(A).onAdvance(heard);
    clocks.sandbox.advance(1);
    clocks.of(A).advance(1);
    clocks.of(B).advance(1);
    expect(heard).toHaveBeenCalledTimes(2);
  });

  it('keep a tenant offset across a restart through restoreTenantOffsets', () => {
    const before = frozen();
    before.clocks.of(A).advance(30 * MINUTE);
    const saved = before.clocks.tenantOffsets();

    const after = frozen();
    const heard = vi.fn();
    after.clocks.of(A).onAdvance(heard);
    after.clocks.restoreTenantOffsets(saved);
    expect(after.clocks.of(A).now()).toBe(T0 + 30 * MINUTE);
    expect(after.clocks.of(B).now()).toBe(T0);
    expect(after.clocks.tenantOffsets()).toEqual({ [A]: 30 * MINUTE });
    // Restored through advance(), so whatever became due meanwhile is re-checked.
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('never move a tenant backwards when restoring an older offset', () => {
    const { clocks } = frozen();
    clocks.of(A).advance(10 * MINUTE);
    clocks.restoreTenantOffsets({ [A]: 4 * MINUTE });
    expect(clocks.of(A).now()).toBe(T0 + 10 * MINUTE);
  });

  it('refuse a restored offset that is not a finite number', () => {
    const { clocks } = frozen();
    expect(() => clocks.restoreTenantOffsets({ [A]: Number.NaN })).toThrow(RangeError);
    expect(() => clocks.restoreTenantOffsets({ [A]: Number.POSITIVE_INFINITY })).toThrow(RangeError);
  });

  it('forget every tenant offset on resetTenants but keep handing out the same clocks', () => {
    const { clocks } = frozen();
    const a = clocks.of(A);
    a.advance(MINUTE);
    clocks.resetTenants();
    expect(clocks.of(A)).toBe(a);
    expect(a.now()).toBe(T0);
    expect(clocks.tenantOffsets()).toEqual({});
  });

  it('throw a RangeError on a negative or non-finite advance, sandbox or tenant', () => {
    const { clocks } = frozen();
    for (const clock of [clocks.sandbox, clocks.of(A)]) {
      for (const ms of [-1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => clock.advance(ms)).toThrow(RangeError);
    }
    expect(clocks.of(A).now()).toBe(T0);
  });
});

describe('the scheduler with tenant clocks', () => {
  it('runs the tasks of tenant A when A advances and leaves those of B and the sandbox', () => {
    const { clocks } = frozen();
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    scheduler.at(T0 + MINUTE, task('a'), A);
    scheduler.at(T0 + MINUTE, task('b'), B);
    scheduler.at(T0 + MINUTE, task('sandbox'));
    clocks.of(A).advance(MINUTE);
    expect(ran).toEqual(['a']);
  });

  it('runs the due tasks of every tenant on a sandbox advance, each judged on its own clock', () => {
    const { clocks } = frozen();
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    clocks.of(A).advance(10 * MINUTE);
    // On A's clock this is 5 minutes away; on B's clock the same number is 15 minutes away.
    scheduler.at(T0 + 15 * MINUTE, task('a'), A);
    scheduler.at(T0 + 15 * MINUTE, task('b'), B);
    scheduler.at(T0 + 5 * MINUTE, task('sandbox'));
    clocks.sandbox.advance(5 * MINUTE);
    expect(ran).toEqual(['a', 'sandbox']);
    clocks.sandbox.advance(10 * MINUTE);
    expect(ran).toEqual(['a', 'sandbox', 'b']);
  });

  it('runs tasks due together in time order and tasks with equal times in insertion order', () => {
    const { clocks } = frozen();
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    scheduler.at(T0 + 2 * MINUTE, task('second'), A);
    scheduler.at(T0 + MINUTE, task('first'), A);
    scheduler.at(T0 + 2 * MINUTE, task('third'), A);
    scheduler.at(T0 + 2 * MINUTE, task('fourth'), A);
    clocks.of(A).advance(2 * MINUTE);
    expect(ran).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('runs due tasks of different clocks the most overdue first', () => {
    const { clocks } = frozen();
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    clocks.of(A).advance(10 * MINUTE);
    scheduler.at(T0 + 11 * MINUTE, task('a, due in 1 minute'), A);
    scheduler.at(T0 + 2 * MINUTE, task('b, due in 2 minutes'), B);
    clocks.sandbox.advance(3 * MINUTE);
    expect(ran).toEqual(['a, due in 1 minute', 'b, due in 2 minutes']);
  });

  it('runs nothing when a cancelled task comes due', () => {
    const { clocks } = frozen();
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    const cancel = scheduler.at(T0 + MINUTE, task('cancelled'), A);
    scheduler.at(T0 + 2 * MINUTE, task('kept'), A);
    cancel();
    clocks.of(A).advance(2 * MINUTE);
    expect(ran).toEqual(['kept']);
  });

  it('lets a task cancel a later task due in the same batch', () => {
    const { clocks } = frozen();
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    let cancelLater = () => {};
    scheduler.at(T0 + MINUTE, () => {
      ran.push('first');
      cancelLater();
    });
    cancelLater = scheduler.at(T0 + 2 * MINUTE, task('later'));
    clocks.sandbox.advance(2 * MINUTE);
    expect(ran).toEqual(['first']);
  });

  it('runs nothing after stop, neither queued tasks nor new ones', () => {
    const { clocks } = frozen();
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    scheduler.at(T0 + MINUTE, task('tenant'), A);
    scheduler.at(T0 + MINUTE, task('sandbox'));
    scheduler.stop();
    scheduler.at(T0, task('after stop'));
    clocks.sandbox.advance(MINUTE);
    clocks.of(A).advance(MINUTE);
    scheduler.runDue();
    expect(ran).toEqual([]);
  });

  it('runs what became due with runDue when real time passes', () => {
    const { clocks, passRealTime } = frozen();
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    clocks.of(A).advance(MINUTE);
    scheduler.at(T0 + 2 * MINUTE, task('a'), A);
    scheduler.at(T0 + 2 * MINUTE, task('b'), B);
    passRealTime(MINUTE);
    scheduler.runDue();
    expect(ran).toEqual(['a']);
  });

  it('reports a failing task to onError and still runs the others', async () => {
    const { clocks } = frozen();
    const errors: unknown[] = [];
    const scheduler = schedulerFor(clocks, (error) => errors.push(error));
    const { ran, task } = recorder();
    scheduler.at(T0, () => {
      throw new Error('thrown');
    }, A);
    scheduler.at(T0, () => Promise.reject(new Error('rejected')), A);
    scheduler.at(T0, task('after'), A);
    clocks.of(A).advance(0);
    await Promise.resolve();
    expect(ran).toEqual(['after']);
    expect(errors.map((error) => (error as Error).message)).toEqual(['thrown', 'rejected']);
  });

  it('still takes a plain Clock, on which every tenant follows the sandbox', () => {
    let real = T0;
    const clock = createClock({ realNow: () => real });
    const scheduler = schedulerFor(clock);
    const { ran, task } = recorder();
    scheduler.at(T0 + MINUTE, task('sandbox'));
    scheduler.at(T0 + 2 * MINUTE, task('tenant'), A);
    clock.advance(MINUTE);
    expect(ran).toEqual(['sandbox']);
    real += MINUTE;
    scheduler.runDue();
    expect(ran).toEqual(['sandbox', 'tenant']);
  });

  it('works with a TenantClocks it did not create, through the public listeners', () => {
    const { clocks } = frozen();
    const foreign: TenantClocks = { ...clocks };
    const scheduler = schedulerFor(foreign);
    const { ran, task } = recorder();
    scheduler.at(T0 + MINUTE, task('a'), A);
    scheduler.at(T0 + MINUTE, task('b'), B);
    foreign.of(A).advance(MINUTE);
    expect(ran).toEqual(['a']);
    foreign.sandbox.advance(MINUTE);
    expect(ran).toEqual(['a', 'b']);
  });
});

describe('the scheduler in real time', () => {
  const waitFor = async (condition: () => boolean, ms = 2000) => {
    const until = Date.now() + ms;
    while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('fires a tenant task when its time is reached in real time', async () => {
    const clocks = createTenantClocks(createClock());
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    clocks.of(A).advance(MINUTE);
    scheduler.at(clocks.of(A).now() + 20, task('a'), A);
    scheduler.at(clocks.of(A).now() + 20, task('b'), B); // a minute away on B's clock
    expect(ran).toEqual([]);
    await waitFor(() => ran.length > 0);
    expect(ran).toEqual(['a']);
  });

  it('re-arms the timer when a tenant clock jumps close to its task', async () => {
    const clocks = createTenantClocks(createClock());
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    scheduler.at(clocks.sandbox.now() + 5 * MINUTE, task('sandbox'));
    scheduler.at(clocks.of(A).now() + 10 * MINUTE, task('a'), A);
    // A is now 20 ms short of its task; the sandbox task is still minutes away.
    clocks.of(A).advance(10 * MINUTE - 20);
    expect(ran).toEqual([]);
    await waitFor(() => ran.length > 0);
    expect(ran).toEqual(['a']);
  });

  it('arms for an earlier task on another clock than the one armed for', async () => {
    const clocks = createTenantClocks(createClock());
    const scheduler = schedulerFor(clocks);
    const { ran, task } = recorder();
    clocks.of(A).advance(MINUTE);
    scheduler.at(clocks.sandbox.now() + MINUTE, task('sandbox'));
    // The same number on A's clock is 20 ms away in real time.
    scheduler.at(clocks.of(A).now() + 20, task('a'), A);
    await waitFor(() => ran.length > 0);
    expect(ran).toEqual(['a']);
  });
});
