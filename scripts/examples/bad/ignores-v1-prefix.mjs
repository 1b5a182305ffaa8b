// Breaks webhook.checks-v1-prefix (spec 6): takes the digest after any prefix.
import { runClient } from './base.mjs';

await runClient({ checkPrefix: false });
