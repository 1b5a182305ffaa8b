// Time for everything that depends on it (token expiry, job delays, webhook retries, idempotency expiry,
// rate windows). Real time plus an offset that the sandbox control API can advance, so an integrator can
// skip an hour of token life or a webhook back-off without waiting. The offset is persisted by the caller.
import { inTenantScope } from './defects.js';
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

const assertForward = (ms: number) => {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
};

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
      assertForward(ms);
      offset += ms;
      for (const listener of listeners) listener();
    },
    onAdvance: (listener) => void listeners.push(listener),
  };
}

// A hosted sandbox is shared by many integrators: one of them skipping an hour must not expire every other
// integrator's tokens or fire their webhook retries. So, like the test clocks of payment sandboxes, each
// tenant has its own clock: the sandbox clock plus an offset of its own that only that tenant's advance moves.
/** The sandbox-wide default clock and one clock per tenant that follows it unless advanced on its own. */
export interface TenantClocks {
  /** The sandbox-wide default: every tenant follows it. */
  readonly sandbox: Clock;
  /** The clock of one tenant: sandbox time plus the tenant's own offset (0 until advanced for that tenant).
   *  advance() on it moves only that tenant; its onAdvance listeners fire when the sandbox clock or this tenant's clock moves. Same object for the same tenant. */
  of(tenantId: string): Clock;
  /** Milliseconds each tenant is ahead of the sandbox clock (only tenants with a non-zero offset): for persistence. */
  tenantOffsets(): Record<string, number>;
  /** Puts tenant offsets back after a restart (never moves a tenant backwards). */
  restoreTenantOffsets(offsets: Record<string, number>): void;
  /** Forget every tenant's own offset (sandbox reset). */
  resetTenants(): void;
}

// A tenant clock's public onAdvance also fires on every sandbox advance (its time moved too). A scheduler that
// re-checked a tenant on each of those would re-check every tenant once per tenant on a sandbox advance, so
// createTenantClocks also reports advances of a tenant's own clock alone, here, out of the public interface.
const ownAdvances = new WeakMap<TenantClocks, (listener: (tenantId: string) => void) => void>();

export function createTenantClocks(sandbox: Clock): TenantClocks {
  type Tenant = { clock: Clock; ownMs: number; listeners: Array<() => void> };
  const tenants = new Map<string, Tenant>();
  const ownListeners: Array<(tenantId: string) => void> = [];
  sandbox.onAdvance(() => {
    for (const tenant of tenants.values()) for (const listener of tenant.listeners) listener();
  });
  const tenantOf = (tenantId: string): Tenant => {
    const known = tenants.get(tenantId);
    if (known) return known;
    const tenant: Tenant = {
      ownMs: 0,
      listeners: [],
      clock: {
        now: () => sandbox.now() + tenant.ownMs,
        nowIso: () => new Date(tenant.clock.now()).toISOString(),
        // Ahead of real time, as for the sandbox clock: what GET /_sim/clock shows as offsetSeconds.
        offsetMs: () => sandbox.offsetMs() + tenant.ownMs,
        advance(ms) {
          assertForward(ms);
          tenant.ownMs += ms;
          for (const listener of ownListeners) listener(tenantId);
          for (const listener of tenant.listeners) listener();
        },
        onAdvance: (listener) => void tenant.listeners.push(listener),
      },
    };
    tenants.set(tenantId, tenant);
    return tenant;
  };
  const clocks: TenantClocks = {
    sandbox,
    of: (tenantId) => tenantOf(tenantId).clock,
    tenantOffsets() {
      const offsets: Record<string, number> = {};
      for (const [tenantId, tenant] of tenants) if (tenant.ownMs !== 0) offsets[tenantId] = tenant.ownMs;
      return offsets;
    },
    restoreTenantOffsets(offsets) {
      for (const [tenantId, ms] of Object.entries(offsets)) {
        // A corrupt persisted offset must surface, not silently become "no offset".
        if (!Number.isFinite(ms)) throw new RangeError(`tenant ${tenantId}: the clock offset is not a finite number`);
        // Through advance(), so what became due while the process was down runs, as for the sandbox clock.
        const behind = ms - tenantOf(tenantId).ownMs;
        if (behind > 0) tenantOf(tenantId).clock.advance(behind);
      }
    },
    resetTenants() {
      // Same clock objects (callers may hold them), offsets back to following the sandbox. Time moves back
      // for those tenants, so nothing can become due: no listener is told.
      for (const tenant of tenants.values()) tenant.ownMs = 0;
    },
  };
  ownAdvances.set(clocks, (listener) => void ownListeners.push(listener));
  return clocks;
}

const isTenantClocks = (clocks: Clock | TenantClocks): clocks is TenantClocks => 'sandbox' in clocks && 'of' in clocks;

/** Runs callbacks at virtual times: a real timer for the earliest task, re-armed when a clock jumps. */
export interface Scheduler {
  /** Runs task once whenMs is reached on the tenant's clock (the sandbox clock without tenantId). Returns a cancel function. */
  at(whenMs: number, task: () => void | Promise<void>, tenantId?: string): () => void;
  /** Runs everything already due on every clock (tests call this after advancing a clock). */
  runDue(): void;
  /** Drops every task and timer, as when the process dies; later at() calls schedule nothing. */
  stop(): void;
}

/** A plain Clock still works (sandbox only: no one else holds its tenant clocks, so every tenant just follows it). */
export function createScheduler(clocks: TenantClocks | Clock, onError: (error: unknown) => void = () => {}): Scheduler {
  const tenantClocks = isTenantClocks(clocks) ? clocks : createTenantClocks(clocks);
  type Task = { when: number; seq: number; run: () => void | Promise<void>; cancelled: boolean };
  // One queue per clock, sorted by (when, seq) from `head` on: run tasks are skipped by moving head rather
  // than shifting, and the array is compacted once most of it is spent.
  type Queue = { clock: Clock; tasks: Task[]; head: number };
  type Key = string | undefined; // undefined: the sandbox clock
  const queues = new Map<Key, Queue>();
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;
  // The task the timer was armed for: a new task only re-arms when it is due sooner in real time.
  let armedFor: { when: number; clock: Clock } | undefined;
  let stopped = false;

  const clockOf = (key: Key) => (key === undefined ? tenantClocks.sandbox : tenantClocks.of(key));
  /** Real milliseconds until `when` on `clock`: tasks on different clocks compare only in real time. */
  const realDelay = (when: number, clock: Clock) => when - clock.now();

  /** Drops cancelled tasks at the front, compacts, forgets an empty queue; returns the first live task. */
  const settle = (key: Key, queue: Queue): Task | undefined => {
    while (queue.head < queue.tasks.length && queue.tasks[queue.head].cancelled) queue.head += 1;
    if (queue.head === queue.tasks.length) {
      if (queues.get(key) === queue) queues.delete(key);
      return undefined;
    }
    if (queue.head > 64 && queue.head * 2 > queue.tasks.length) {
      queue.tasks = queue.tasks.slice(queue.head);
      queue.head = 0;
    }
    return queue.tasks[queue.head];
  };

  const setTimer = (when: number, clock: Clock) => {
    if (timer) clearTimeout(timer);
    armedFor = { when, clock };
    timer = setTimeout(runDue, Math.max(0, Math.min(realDelay(when, clock), 2 ** 31 - 1)));
    timer.unref();
  };
  /** Arms the one real timer for the earliest task across every clock. */
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    armedFor = undefined;
    if (stopped) return;
    let earliest: { when: number; clock: Clock; delay: number } | undefined;
    for (const [key, queue] of queues) {
      const first = settle(key, queue);
      if (!first) continue;
      const delay = realDelay(first.when, queue.clock);
      if (!earliest || delay < earliest.delay) earliest = { when: first.when, clock: queue.clock, delay };
    }
    if (earliest) setTimer(earliest.when, earliest.clock);
  };

  /** Takes the due tasks off the given queues, then runs them, the most overdue first (ties: scheduling order). */
  const runDueOf = (keys: Iterable<Key>) => {
    const due: Array<{ task: Task; lateness: number }> = [];
    for (const key of keys) {
      const queue = queues.get(key);
      if (!queue) continue;
      const now = queue.clock.now();
      while (queue.head < queue.tasks.length && queue.tasks[queue.head].when <= now) {
        const task = queue.tasks[queue.head++];
        if (!task.cancelled) due.push({ task, lateness: now - task.when });
      }
      settle(key, queue);
    }
    due.sort((a, b) => b.lateness - a.lateness || a.task.seq - b.task.seq);
    for (const { task } of due) {
      // An earlier task of this batch may have cancelled it.
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
  const runDue = () => {
    if (!stopped) runDueOf([...queues.keys()]);
  };
  /** Only this tenant's clock moved: only its tasks can have become due. */
  const runDueOfTenant = (tenantId: string) => {
    if (!stopped && queues.has(tenantId)) runDueOf([tenantId]);
  };

  tenantClocks.sandbox.onAdvance(runDue);
  const onOwnAdvance = ownAdvances.get(tenantClocks);
  if (onOwnAdvance) onOwnAdvance(runDueOfTenant);
  // Another TenantClocks implementation only has the public listeners, which also fire on sandbox advances:
  // correct, just a redundant check of each such tenant then.
  const watched = new Set<string>();
  const watch = (tenantId: string) => {
    if (onOwnAdvance || watched.has(tenantId)) return;
    watched.add(tenantId);
    tenantClocks.of(tenantId).onAdvance(() => runDueOfTenant(tenantId));
  };

  return {
    at(when, run, tenantId) {
      // NaN is never reached and would break the queue's order; stopped means the process is gone.
      if (stopped || Number.isNaN(when)) return () => {};
      let queue = queues.get(tenantId);
      if (!queue) {
        if (tenantId !== undefined) watch(tenantId);
        queue = { clock: clockOf(tenantId), tasks: [], head: 0 };
        queues.set(tenantId, queue);
      }
      // Each task runs in its tenant's fault scope (kernel/defects.ts), never in that of the request that armed it.
      const task: Task = { when, seq: seq++, run: () => inTenantScope(tenantId, run), cancelled: false };
      // Binary search for the first later task: equal times keep insertion order.
      let low = queue.head;
      let high = queue.tasks.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (queue.tasks[mid].when <= when) low = mid + 1;
        else high = mid;
      }
      queue.tasks.splice(low, 0, task);
      if (!armedFor || realDelay(when, queue.clock) < realDelay(armedFor.when, armedFor.clock)) setTimer(when, queue.clock);
      return () => {
        task.cancelled = true;
      };
    },
    runDue,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      armedFor = undefined;
      queues.clear();
    },
  };
}
