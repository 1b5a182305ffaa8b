// Preloaded into the soak's simulator process (NODE_OPTIONS=--import, by scripts/bench/soak.ts) so the
// soak can read the V8 heap without adding anything to the simulator: once a second it writes
// process.memoryUsage() as JSON to the file named by SOAK_MEMORY_FILE. The timer is unref'd, so it never
// keeps the process alive; a failed write is ignored (the soak then reports RSS only).
import { writeFileSync } from 'node:fs';

const file = process.env.SOAK_MEMORY_FILE;
if (file) {
  // On SIGUSR2 (sent by the soak at the end of warm-up and at the end of the traffic): a full GC (the
  // process runs with --expose-gc), then the live heap to `<file>.live`. What survives a full GC is what the
  // process holds; the once-a-second samples also count garbage not yet collected.
  process.on('SIGUSR2', () => {
    try {
      globalThis.gc?.();
      writeFileSync(`${file}.live`, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
    } catch {
      // as below
    }
  });
  setInterval(() => {
    try {
      writeFileSync(file, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
    } catch {
      // the soak's temp dir may be gone while the process shuts down
    }
  }, 1000).unref();
}
