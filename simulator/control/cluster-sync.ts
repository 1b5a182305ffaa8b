// Control state shared by the instances of a hosted sandbox (issue 17). What the control API changes lives
// partly in each process's memory: the defects and tenant faults, the fault-header allowance, the webhook
// allow list and resolver hosts, the virtual clocks' offsets as applied to the schedulers. With several
// instances behind a load balancer, an operator's PUT lands on one of them and the next request on another, so:
// - every control change made through the API is published: the state written to the shared store with a
//   version number that grows (a sandbox reset also moves `resets`);
// - every request first makes its instance current: one read of that record, and when its version moved,
//   the instance applies it (defects, allow list, clocks from the sandbox store, a reset's local part).
//   A request joins a check only if that check began after the request arrived, so a change acknowledged
//   before the request was sent is always seen;
// - an idle instance polls too, so a clock advanced elsewhere fires its scheduled jobs and retries.
// Two control changes at the same moment on two instances: the later publish wins for the sandbox-wide
// settings (an operator's API, not a hot path; documented in docs/scaling.md).
// A store one process owns has nothing to share: every function here is a no-op then.
import type { Middleware } from 'koa';
import type { KernelDeps } from '../kernel/deps.js';
import type { DefectsSnapshot } from '../kernel/defects.js';

interface ControlStateRecord {
  id: 'control';
  rev?: number;
  version: number;
  /** Sandbox resets so far: an instance that sees it move clears what it keeps of the old sandbox. */
  resets: number;
  defects: DefectsSnapshot;
  allowTargets: string[];
  /** The webhook resolver's host table (absent in a record published before it existed). */
  resolverHosts?: Record<string, string>;
  publishedBy: string;
}

export interface ClusterSyncOptions {
  deps: KernelDeps;
  allowTargets: { list(): readonly string[]; replace(targets: readonly string[]): readonly string[] };
  resolverHosts?: { list(): Readonly<Record<string, string>>; replace(hosts: Readonly<Record<string, string>>): Readonly<Record<string, string>> };
  /** Puts the clocks where the store says (never backwards): sandbox.store.ts restoreClocks. */
  restoreClocks(): Promise<void>;
  /** What an instance forgets when another one reset the sandbox (tenant clocks, request log, windows). */
  forgetSandbox(): void;
  /** How often an idle instance checks (ms). */
  pollMs?: number;
}

export interface ClusterSync {
  readonly enabled: boolean;
  /** Before anything reads control state (the fault scope): makes this instance current. A failed read is
   *  logged and the request goes on with the state this instance has (the store's own error, if it is
   *  down, then reaches the client in the envelope). */
  current(): Middleware;
  /** Inside the error envelope: publishes a control change once it succeeded (a failed publish is an error). */
  publisher(): Middleware;
  /** Publishes this instance's control state (`reset`: after a sandbox reset). */
  publish(kind?: 'change' | 'reset'): Promise<void>;
  /** Applies the shared state when it moved. */
  refresh(): Promise<void>;
  start(): void;
  stop(): void;
}

const isControlChange = (method: string, path: string) => method !== 'GET' && method !== 'HEAD' && (path === '/_sim' || path.startsWith('/_sim/'));

export function clusterSync(options: ClusterSyncOptions): ClusterSync {
  const { deps } = options;
  const shared = deps.store.shared;
  const records = deps.store.collection<ControlStateRecord>('clusterControl');
  let applied = { version: 0, resets: 0 };
  let check: { startedAt: number; done: Promise<void> } | undefined;
  let timer: NodeJS.Timeout | undefined;

  const apply = async (record: ControlStateRecord) => {
    if (record.resets !== applied.resets) options.forgetSandbox();
    deps.defects.restore(record.defects);
    options.allowTargets.replace(record.allowTargets);
    options.resolverHosts?.replace(record.resolverHosts ?? {});
    await options.restoreClocks();
    applied = { version: record.version, resets: record.resets };
  };

  const refreshNow = async () => {
    const record = await records.get('control');
    if (record && (record.version !== applied.version || record.resets !== applied.resets)) await apply(record);
  };

  /** A check that began at or after `since` (ms, performance.now()), started when none did. */
  const currentAsOf = (since: number): Promise<void> => {
    if (check && check.startedAt >= since) return check.done;
    const startedAt = performance.now();
    const done = refreshNow().finally(() => {
      if (check?.done === done) check = undefined;
    });
    check = { startedAt, done };
    return done;
  };

  const sync: ClusterSync = {
    enabled: shared !== undefined,
    current: () => async (ctx, next) => {
      if (!shared) return next();
      try {
        await currentAsOf(performance.now());
      } catch (error) {
        deps.log.error({ err: error, requestId: ctx.state.requestId }, 'cluster control state not read');
      }
      return next();
    },
    publisher: () => async (ctx, next) => {
      await next();
      if (shared && isControlChange(ctx.method, ctx.path) && ctx.status < 400) await sync.publish(ctx.path === '/_sim/reset' ? 'reset' : 'change');
    },
    async publish(kind = 'change') {
      if (!shared) return;
      // The record is gone after a reset (the store was cleared): the version keeps growing from ours.
      const previous = await records.get('control');
      const version = Math.max(previous?.version ?? 0, applied.version) + 1;
      const resets = Math.max(previous?.resets ?? 0, applied.resets) + (kind === 'reset' ? 1 : 0);
      await records.put({ id: 'control', version, resets, defects: deps.defects.snapshot(), allowTargets: [...options.allowTargets.list()], ...(options.resolverHosts ? { resolverHosts: { ...options.resolverHosts.list() } } : {}), publishedBy: shared.instanceId });
      applied = { version, resets };
    },
    refresh: () => (shared ? currentAsOf(performance.now()) : Promise.resolve()),
    start() {
      if (!shared || timer) return;
      timer = setInterval(() => {
        sync.refresh().catch((error: unknown) => deps.log.warn({ err: error }, 'cluster control state not refreshed'));
      }, options.pollMs ?? 250);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
  return sync;
}
