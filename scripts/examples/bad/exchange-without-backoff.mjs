// Breaks token.exchange-backoff (spec 7): retries a refused token exchange at once.
import { runClient } from './base.mjs';

await runClient({ exchangeBackoffMs: () => 0 });
