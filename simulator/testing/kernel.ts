// Kernel dependencies for tests: in-memory store, a clock whose real part the test controls, seeded ids,
// silent logs. Everything a failure needs to replay is in the seed.
import pino from 'pino';
import { testConfig, type SimulatorConfig } from '../config.js';
import { DEFECT_CATALOGUE } from '../control/defects.catalogue.js';
import { createClock, createScheduler, createTenantClocks, type Clock } from '../kernel/clock.js';
import { createDefects } from '../kernel/defects.js';
import type { KernelDeps } from '../kernel/deps.js';
import { seededIds } from '../kernel/ids.js';
import { openStore } from '../kernel/store/store.js';

/** The clock part of the deps: a sandbox clock, the tenant clocks that follow it, and their scheduler. */
export function clockDeps(clock: Clock, log: Pick<KernelDeps['log'], 'error'>): Pick<KernelDeps, 'clock' | 'clocks' | 'scheduler'> {
  const clocks = createTenantClocks(clock);
  return { clock, clocks, scheduler: createScheduler(clocks, (error) => log.error({ err: error }, 'scheduled task failed')) };
}

export async function createTestDeps(options: { config?: Partial<SimulatorConfig>; seed?: number; file?: string; clock?: Clock } = {}): Promise<KernelDeps> {
  const config = testConfig(options.config);
  // Before the store opens: an unknown defect id refuses to start, as in main.ts.
  const defects = createDefects(config.defects, DEFECT_CATALOGUE);
  const log = pino({ level: config.logLevel });
  return {
    config,
    store: await openStore({ file: options.file ?? config.dbPath ?? undefined }),
    ...clockDeps(options.clock ?? createClock(), log),
    ids: seededIds(options.seed ?? 1),
    log,
    defects,
  };
}
