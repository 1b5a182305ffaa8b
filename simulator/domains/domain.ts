// The shape every domain offers the composition root: the module it builds (DomainModule) and its manifest
// (DomainManifest), the one object its index.ts exports for domains/manifests.ts to list.
import type { DefectEntry, ResponseDefect } from '../kernel/defects.js';
import type { KernelDeps } from '../kernel/deps.js';
import type { DashboardHandlerTable, HandlerTable } from '../kernel/http/types.js';
import type { TestValue } from '../kernel/test-values.js';
import type { Machine } from '../kernel/machine.js';

export interface DomainModule {
  name: string;
  /** operationId -> handler, for the operations this domain serves. */
  handlers: HandlerTable;
  /** operationId -> handler, for the dashboard-only routes this domain serves (contracts/sandbox-dashboard.openapi.yaml). */
  dashboardHandlers?: DashboardHandlerTable;
  /** After the store is loaded: resume what was in flight (jobs, deliveries). */
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

/**
 * Everything the sandbox knows about one domain. Every part is required (an empty list where the domain has
 * none), so a manifest that leaves one out does not compile. Importing a manifest starts nothing: the data
 * parts are read before the store opens (main.ts reads the defect catalogue), `create` runs once the kernel
 * is built.
 */
export interface DomainManifest<Name extends string = string, Built extends DomainModule = DomainModule, Peers extends object = object> {
  /** The name the composition root and the other domains know it by (a key of `Domains`). */
  readonly name: Name;
  /** The domains `create` is given (by name), built before it. */
  readonly needs: ReadonlyArray<keyof Peers & string>;
  create(deps: KernelDeps, peers: Peers): Built;
  /** Its entries of the defect catalogue (README "Defect injection"), in catalogue order. */
  readonly defects: readonly DefectEntry[];
  /** Its response-level defects, made afresh for each sandbox (one may remember what it has seen). */
  responseDefects(): readonly ResponseDefect[];
  /** Its test values (simulator/TEST-VALUES.md, GET /_sim/test-values). */
  readonly testValues: readonly TestValue[];
  /** The machines its stores track, under the contract's x-lifecycle names (kernel/transition-log.ts; GET /_sim/lifecycles). */
  // any: each machine has its own states, actions and context.
  readonly lifecycles: Readonly<Record<string, Machine<any, any, any>>>;
  /** Deletes what it keeps of the tenant through its own stores, by their tenant indexes (never a scan);
   *  answers how many records went. DELETE /_sim/tenants/{tenantId} (control/tenant-purge.ts). */
  purgeTenant(deps: KernelDeps, tenantId: string): Promise<number>;
}

/** The peers `create` takes that `needs` does not name: a manifest must name each one. */
type Unnamed<Peers, Needs extends readonly PropertyKey[]> = Exclude<keyof Peers, Needs[number]>;

/** A manifest, checked: `needs` names exactly the peers `create` takes (a peer it forgot would be undefined). */
export function defineDomain<const Name extends string, Built extends DomainModule, Peers extends object, const Needs extends ReadonlyArray<keyof Peers & string>>(
  manifest: DomainManifest<Name, Built, Peers> & { readonly needs: Needs } & ([Unnamed<Peers, Needs>] extends [never] ? unknown : { unnamedPeers: Unnamed<Peers, Needs> }),
): DomainManifest<Name, Built, Peers> {
  return manifest;
}
