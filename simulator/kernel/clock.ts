// Time for everything that depends on it (token expiry, job delays, webhook retries, idempotency expiry,
// rate windows). Real time plus an offset that the sandbox control API can advance, so an integrator can
// skip an hour of token life or a webhook back-off without waiting. The offset is persisted by the caller.
export interface Clock {
  /** Milliseconds since the epoch, virtual. */
  now(): number;
  nowIso(): string;
  /** Milliseconds the virtual clock is ahead of real time. */
  offsetMs(): number;
  advance(ms: number): void;
  /** Called after every advance (the scheduler re-checks what became due). */
  onAdvance(listener: () => void): void;
}

export function createClock(options: { offsetMs?: number; realNow?: () => number } = {}): Clock {
  const realNow = options.realNow ?? Date.now;
  let offset = options.offsetMs ?? 0;
  const listeners: Array<() => void> = [];
  return {
    now: () => realNow() + offset,
    nowIso() {
      return new Date(this.now()).toISOString();
    },
    offsetMs: () => offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
      offset += ms;
      for (const listener of listeners) listener();
    },
    onAdvance: (listener) => void listeners.push(listener),
  };
}

/** Runs callbacks at virtual times: a real timer for the earliest task, re-armed when the clock jumps. */
export interface Scheduler {
  at(whenMs: number, task: () => void | Promise<void>): () => void;
  /** Runs everything already due (tests call this after advancing the clock). */
  runDue(): void;
  stop(): void;
}

export function createScheduler(clock: Clock, onError: (error: unknown) => void = () => {}): Scheduler {
  type Task = { when: number; seq: number; run: () => void | Promise<void>; cancelled: boolean };
  let tasks: Task[] = [];
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (stopped || tasks.length === 0) return;
    const delay = Math.max(0, Math.min(tasks[0].when - clock.now(), 2 ** 31 - 1));
    timer = setTimeout(runDue, delay);
    timer.unref();
  };
  const runDue = () => {
    const now = clock.now();
    const due: Task[] = [];
    while (tasks.length && tasks[0].when <= now) due.push(tasks.shift()!);
    for (const task of due) {
      if (task.cancelled) continue;
      try {
        const result = task.run();
        if (result instanceof Promise) result.catch(onError);
      } catch (error) {
        onError(error);
      }
    }
    arm();
  };
  clock.onAdvance(runDue);
  return {
    at(when, run) {
      const task: Task = { when, seq: seq++, run, cancelled: false };
      const index = tasks.findIndex((t) => t.when > when);
      if (index === -1) tasks.push(task);
      else tasks.splice(index, 0, task);
      if (tasks[0] === task) arm();
      return () => {
        task.cancelled = true;
      };
    },
    runDue,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      tasks = [];
    },
  };
}
