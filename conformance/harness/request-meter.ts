// The requests each check puts on the wire, counted per rate bucket (spec 8.1 rule 1): what the run plan
// (budget.ts) estimates from, and what each check result reports as `requestsByBucket`. The meter watches
// `fetch` itself rather than asking the client: it counts what reaches the target whatever the transport
// does (token exchanges, retries after a 429, polling), and it needs nothing from client.ts. Only requests
// to the target's API are counted: the control API (`/_sim`) has no rate bucket.
import type { BucketCounts } from './types.js';
import { bucketOfRequest, emptyCounts } from './budget.js';

export interface RequestMeter {
  /** Counts from now on for a new check; returns the counts of the previous one. */
  next(): BucketCounts;
  /** Stops counting and gives `fetch` back; returns the counts of the last check. */
  stop(): BucketCounts;
}

/** Counts every request to `baseUrl` (outside `/_sim`) until `stop()`. One meter at a time: checks run one after another. */
export function startRequestMeter(baseUrl: string): RequestMeter {
  const original = globalThis.fetch;
  const origin = new URL(baseUrl).origin;
  let counts = emptyCounts();
  const metered: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin === origin && !url.pathname.startsWith('/_sim')) {
      const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');
      counts[bucketOfRequest(method, init?.body)]++;
    }
    return original(input, init);
  };
  globalThis.fetch = metered;
  return {
    next() {
      const previous = counts;
      counts = emptyCounts();
      return previous;
    },
    stop() {
      if (globalThis.fetch === metered) globalThis.fetch = original;
      return counts;
    },
  };
}
