// Breaks polling.pace (spec 8.7): polls the job every 200 ms.
import { runClient } from './base.mjs';

await runClient({ pollDelayMs: () => 200 });
