// Breaks retry.waits-after-429 (spec 7): sends the request again at once after a 429.
import { runClient } from './base.mjs';

await runClient({ waitOn429Ms: () => 0 });
