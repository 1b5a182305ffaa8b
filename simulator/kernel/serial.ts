// Work that must not interleave per key (a tenant's check-then-write, such as queue admission followed by
// the job's creation): each key runs its tasks one after another, different keys run side by side.
import type { Store } from './store/collection.js';

/** Within one process. */
export function keyedSerial() {
  const tails = new Map<string, Promise<unknown>>();
  return function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    // Forget the key once its last task is done, so the map holds only keys with work in flight.
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return result;
  };
}

/**
 * Within every instance sharing the store (issue 17): tasks of one key hold the store's lock of that key
 * (SharedServices.exclusive: an advisory lock in PostgreSQL, which queues this process's callers of a key
 * itself), so a second instance's task waits for the first one's writes. A store one process owns: in
 * this process.
 */
export function storeSerial(store: Pick<Store, 'shared'>, scope: string) {
  const local = keyedSerial();
  return function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return store.shared ? store.shared.exclusive(`${scope}:${key}`, task) : local(key, task);
  };
}
