// Breaks retry.upload-without-key (spec 7): retries the ship upload, which has no Idempotency-Key, after a 5xx.
import { runClient } from './base.mjs';

await runClient({ retriesOn5xx: () => 1 });
