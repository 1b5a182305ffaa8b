// What GET /healthz reports about the store. A failed journal append or snapshot leaves memory ahead of the
// disk (the failed batch is not journaled; kernel/store/store.ts hands the error to onError), so once one
// write failed the sandbox answers 503 until it is restarted: a restart replays what did reach the disk.
interface StoreFailure {
  at: string;
  message: string;
}

export interface StoreHealth {
  /** The store's onError: remembers the first failure (later ones usually repeat its cause). */
  record(error: unknown): void;
  failure(): StoreFailure | null;
}

export function createStoreHealth(now: () => Date = () => new Date()): StoreHealth {
  let failure: StoreFailure | null = null;
  return {
    record(error) {
      failure ??= { at: now().toISOString(), message: error instanceof Error ? error.message : String(error) };
    },
    failure: () => failure,
  };
}
