// Who runs a piece of background work (a job, a webhook delivery) when several instances share one
// database (issue 17): the instance holding its lease (store/collection.ts Leases). An instance takes the
// lease of the work it creates, keeps its leases alive while it lives, gives them up when the work ends,
// and takes over the work of an instance that died (its leases expired) as a restart would resume it.
// On a store one process owns there is nobody to share with: every lease is this process's.
import type { Logger } from 'pino';
import type { Leases, Store } from './store/collection.js';

/** How long a lease lasts unless renewed, and how often this instance renews its own and looks for orphans. */
const LEASE_TTL_MS = 15_000;
const LEASE_RENEW_MS = 3_000;
const TAKEOVER_BATCH = 50;

export interface LeaseKeeper {
  /** False on a store one process owns (every call below then answers at once). */
  readonly shared: boolean;
  /** Takes (or still holds) the lease of `id`: true when this instance may run the work. */
  hold(id: string): Promise<boolean>;
  /** Gives these leases up (the work ended) in one statement. Never rejects (a lease not released
   *  expires): callers whose work ended need not wait for it. */
  release(...ids: string[]): Promise<void>;
  /** Hands the leases of work left unfinished (this instance stops) to the next instance's round, in one
   *  statement, instead of after their expiry. Never rejects (they expire then). */
  handOver(...ids: string[]): Promise<void>;
  /** Renews this instance's leases and hands expired ones to `takeOver`, every `LEASE_RENEW_MS`. */
  start(takeOver: (id: string) => Promise<void>): void;
  stop(): void;
}

export function leaseKeeper(store: Pick<Store, 'shared'>, kind: string, log: Logger, options: { ttlMs?: number; renewMs?: number } = {}): LeaseKeeper {
  const shared = store.shared;
  const leases: Leases | undefined = shared?.leases(kind, options.ttlMs ?? LEASE_TTL_MS);
  const held = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> | undefined;

  const round = async (takeOver: (id: string) => Promise<void>) => {
    if (!leases) return;
    // Renewing is this instance's heartbeat: due even when it holds nothing (its next lease lives by it).
    const kept = new Set(await leases.renew([...held]));
    // A lease lost meanwhile (this process stalled past its expiry) belongs to another instance now: its
    // compare-and-set writes make sure the work is recorded once, whoever finishes it.
    for (const id of held) if (!kept.has(id)) held.delete(id);
    for (const id of await leases.takeExpired(TAKEOVER_BATCH)) {
      held.add(id);
      log.info({ kind, id, instanceId: shared?.instanceId }, 'took over work whose instance stopped renewing it');
      try {
        await takeOver(id);
      } catch (error) {
        log.error({ err: error, kind, id }, 'taking over work failed');
      }
    }
  };

  /** The leases of `ids` this instance holds, given up one way or the other in one call; a failure is
   *  logged (they expire). */
  const giveUp = async (how: 'release' | 'handOver', ids: string[]) => {
    const mine = ids.filter((id) => held.delete(id));
    if (!leases || mine.length === 0) return;
    await leases[how](mine).catch((error: unknown) => log.warn({ err: error, kind, ids: mine.length }, `${how}: leases not given up; they expire`));
  };

  return {
    shared: leases !== undefined,
    async hold(id) {
      if (!leases || held.has(id)) return true;
      if (!(await leases.acquire(id))) return false;
      held.add(id);
      return true;
    },
    release: (...ids) => giveUp('release', ids),
    handOver: (...ids) => giveUp('handOver', ids),
    start(takeOver) {
      if (!leases || timer) return;
      timer = setInterval(() => {
        // One round at a time: a slow database must not pile rounds up.
        tick ??= round(takeOver)
          .catch((error: unknown) => log.warn({ err: error, kind }, 'lease round failed'))
          .finally(() => (tick = undefined));
      }, options.renewMs ?? LEASE_RENEW_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
