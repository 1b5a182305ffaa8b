// Breaks webhook.deduplicates (spec 6): processes every delivery it accepts, the same id again included.
import { runClient } from './base.mjs';

await runClient({ dedupe: false });
