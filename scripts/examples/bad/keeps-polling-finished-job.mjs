// Breaks polling.stops-when-terminal (spec 3.1): reads the job 3 more times after it is COMPLETED.
import { runClient } from './base.mjs';

await runClient({ pollsAfterTerminal: 3 });
