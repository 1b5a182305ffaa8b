// Breaks retry.write-once-after-5xx (spec 7): retries a write up to 3 times after a 5xx (the upload still never).
import { runClient } from './base.mjs';

await runClient({ retriesOn5xx: (kind) => (kind === 'upload' ? 0 : 3) });
