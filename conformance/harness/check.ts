// A check: a small named unit asserting one property of the server, with what it needs from the target.
import type { AdminClient } from './admin.js';
import type { ConformanceClient } from './client.js';
import type { LoadedContract } from './contract.js';
import type { Exchange, Failure, Need, TargetOptions } from './types.js';

/** A webhook receiver the target can reach (built by harness/receiver.ts). */
export interface ReceiverHandle {
  /** URL to give the server as webhookUrl (https when public, http for a local simulator). */
  url: string;
  /** Deliveries received so far, in arrival order. */
  deliveries(): ReceivedDelivery[];
  /** Resolves with the first delivery matching `predicate`, or throws after `timeoutMs`. */
  waitFor(predicate: (delivery: ReceivedDelivery) => boolean, timeoutMs?: number): Promise<ReceivedDelivery>;
  /** Answer the next `count` deliveries with this status (to provoke retries). */
  failNext(count: number, status?: number): void;
  /** Hold the answer (the usual 204, or a failNext status) to the next `count` deliveries for `ms` (attempt timeouts). */
  holdNext(count: number, ms: number): void;
}

export interface ReceivedDelivery {
  receivedAt: number;
  path: string;
  headers: Record<string, string>;
  rawBody: string;
  body: unknown;
}

export interface CheckContext {
  options: TargetOptions;
  contract: LoadedContract;
  /** The primary tenant's client. */
  client: ConformanceClient;
  /** A second tenant's client, when the need `secondTenant` is met. */
  second?: ConformanceClient;
  /** The primary tenant's id and key id, when known (simulator profile). */
  tenant?: { tenantId: string; keyId: string };
  admin?: AdminClient;
  receiver?: ReceiverHandle;
  seed: number;
  runs: number;
  fail(rule: string, message: string, exchange?: Exchange, extra?: Partial<Failure>): void;
  /** Fails with `rule` unless `condition` holds; returns the condition. */
  expect(condition: boolean, rule: string, message: string, exchange?: Exchange, extra?: Partial<Failure>): boolean;
  /** Stops the check as skipped (e.g. the server has no data to page through). */
  skip(reason: string): never;
}

export interface Check {
  /** Stable id used in reports and `--only` (e.g. `auth.expired-token-rejected`). */
  id: string;
  title: string;
  /** Report grouping: auth, jobs, webhooks, operations, pagination, idempotency, limits, isolation, ... */
  area: string;
  needs: Need[];
  /**
   * `second-tenant`: every request of the check may go out as the run's second tenant (the answers do not
   * depend on the tenant and are judged each on its own), and on a server that follows the spec it creates
   * nothing but that tenant's own resources. Given a second key outside the simulator profile, the runner runs
   * such checks as the second tenant beside the others (runner.ts lanes): the rate limits of two keys at
   * once, and the first tenant's data untouched while the other checks read it.
   */
  lane?: 'second-tenant';
  run(context: CheckContext): Promise<void>;
}

export class SkipCheck extends Error {}

export const defineCheck = (check: Check): Check => check;
