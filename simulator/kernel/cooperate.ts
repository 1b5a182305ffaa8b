// Long loops give the event loop a turn now and then. Awaiting the in-memory store only queues microtasks,
// which all run before any I/O: a job screening 500,000 SKUs would otherwise hold every HTTP request, timer
// and journal fsync until it ended (and gather all its writes into one group commit).

/** A function to await once per item: every `every` calls it waits for the event loop's next turn. */
export function cooperative(every = 256): () => Promise<void> {
  let calls = 0;
  return async () => {
    calls += 1;
    if (calls % every === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  };
}
