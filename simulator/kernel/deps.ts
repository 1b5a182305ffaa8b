// What every domain is built from. Created once in main.ts (or by a test), passed down explicitly.
import type { Logger } from 'pino';
import type { Clock, Scheduler, TenantClocks } from './clock.js';
import type { DepsConfig } from './config.js';
import type { Defects } from './defects.js';
import type { IdGenerator } from './ids.js';
import type { Store } from './store/collection.js';

export interface KernelDeps {
  /** The kernel's settings (kernel/config.ts) and those the boot file adds for the domains. */
  config: DepsConfig;
  store: Store;
  /** The sandbox-wide clock: time of records that belong to no tenant. Every tenant clock follows it. */
  clock: Clock;
  /**
   * One clock per tenant (`clocks.of(tenantId)`): a tenant's tokens, job delays, webhook retries,
   * idempotency expiry and rate windows read it, so advancing one tenant's time leaves the others alone.
   */
  clocks: TenantClocks;
  /** Runs work at virtual times, each task on its tenant's clock. */
  scheduler: Scheduler;
  ids: IdGenerator;
  log: Logger;
  /** Deliberate misbehaviours switched on for this run (SIM_DEFECTS, PUT /_sim/defects); none by default. */
  defects: Defects;
}
