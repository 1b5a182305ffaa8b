// Breaks webhook.rejects-stale-timestamp (spec 6, a "may": a warning): no replay window.
import { runClient } from './base.mjs';

await runClient({ checkTimestamp: false });
