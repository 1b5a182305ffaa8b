// What every domain is built from. Created once in main.ts (or by a test), passed down explicitly.
import type { Logger } from 'pino';
import type { SimulatorConfig } from '../config.js';
import type { Clock, Scheduler } from './clock.js';
import type { Defects } from './defects.js';
import type { IdGenerator } from './ids.js';
import type { Store } from './store/store.js';

export interface KernelDeps {
  config: SimulatorConfig;
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  ids: IdGenerator;
  log: Logger;
  /** Deliberate misbehaviours switched on for this run (SIM_DEFECTS, PUT /_sim/defects); none by default. */
  defects: Defects;
}
