// The requests each check puts on the wire, counted per rate bucket (spec 8.1 rule 1): what the run plan
// (budget.ts) estimates from, and what each check result reports as `requestsByBucket`. The meter watches
// `fetch` itself rather than asking the client: it counts what reaches the target whatever the transport
// does (token exchanges, retries after a 429, polling), and it needs nothing from client.ts. Only requests
// to the target's API are counted: the control API (`/_sim`) has no rate bucket. A request counts for the
// check whose run sent it (an async context), so checks running side by side (runner.ts lanes) keep apart.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { BucketCounts } from './types.js';
import { bucketOfRequest, emptyCounts } from './budget.js';

export interface RequestMeter {
  /** Runs `work` (one check), counting the requests it sends; resolves with its value and its counts. */
  track<T>(work: () => Promise<T>): Promise<{ value: T; counts: BucketCounts }>;
  /** Stops counting and gives `fetch` back. */
  stop(): void;
}

/** Counts every request to `baseUrl` (outside `/_sim`) sent within a `track`ed run until `stop()`. One meter at a time. */
export function startRequestMeter(baseUrl: string): RequestMeter {
  const original = globalThis.fetch;
  const origin = new URL(baseUrl).origin;
  const current = new AsyncLocalStorage<BucketCounts>();
  const metered: typeof fetch = (input, init) => {
    const counts = current.getStore();
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (counts && url.origin === origin && !url.pathname.startsWith('/_sim')) {
      const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');
      counts[bucketOfRequest(method, init?.body)]++;
    }
    return original(input, init);
  };
  globalThis.fetch = metered;
  return {
    async track(work) {
      const counts = emptyCounts();
      const value = await current.run(counts, work);
      return { value, counts };
    },
    stop() {
      if (globalThis.fetch === metered) globalThis.fetch = original;
    },
  };
}
