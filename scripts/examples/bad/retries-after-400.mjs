// Breaks retry.none-after-4xx (spec 7): sends a refused write again unchanged.
import { runClient } from './base.mjs';

await runClient({ retriesOn4xx: 1 });
