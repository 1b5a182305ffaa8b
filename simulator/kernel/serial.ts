// Work that must not interleave per key (a tenant's check-then-write, such as queue admission followed by
// the job's creation): each key runs its tasks one after another, different keys run side by side. Within
// one process only; a shared database needs its own guard (a transaction or a conditional write).
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
