// Kernel dependencies for tests: in-memory store, a clock whose real part the test controls, seeded ids,
// silent logs. Everything a failure needs to replay is in the seed.
import pino from 'pino';
import { testConfig, type SimulatorConfig } from '../config.js';
import { DEFECT_IDS } from '../control/defects.catalogue.js';
import { createClock, createScheduler } from '../kernel/clock.js';
import { createDefects } from '../kernel/defects.js';
import type { KernelDeps } from '../kernel/deps.js';
import { seededIds } from '../kernel/ids.js';
import { openStore } from '../kernel/store/store.js';

export async function createTestDeps(options: { config?: Partial<SimulatorConfig>; seed?: number; file?: string } = {}): Promise<KernelDeps> {
  const config = testConfig(options.config);
  // Before the store opens: an unknown defect id refuses to start, as in main.ts.
  const defects = createDefects(config.defects, DEFECT_IDS);
  const clock = createClock();
  const log = pino({ level: config.logLevel });
  return {
    config,
    store: await openStore({ file: options.file ?? config.dbPath ?? undefined }),
    clock,
    scheduler: createScheduler(clock, (error) => log.error({ err: error }, 'scheduled task failed')),
    ids: seededIds(options.seed ?? 1),
    log,
    defects,
  };
}
