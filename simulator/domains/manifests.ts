// The domains of the sandbox, one manifest each (domain.ts): the one list the composition root
// (domains/index.ts), the defect catalogue (control/defects.catalogue.ts), the response defects, the test
// values (control/test-values.ts), the tenant purge (control/tenant-purge.ts) and the transition log's
// lifecycle names are derived from. Adding a domain is one line here.
//
// The list is in catalogue order (the README table and GET /_sim/defects follow it, after the kernel's
// entries); a domain is built after the domains it needs, wherever it stands (buildOrder).
import { authDomain } from './auth/index.js';
import { billingDomain } from './billing/index.js';
import { classificationDomain } from './classification/index.js';
import type { DomainManifest, DomainModule } from './domain.js';
import { jobsDomain } from './jobs/index.js';
import { landedCostDomain } from './landed-cost/index.js';
import { shipDomain } from './ship/index.js';
import { signupDomain } from './signup/index.js';
import { simaDomain } from './sima/index.js';
import { tenantsDomain } from './tenants/index.js';
import { tradeDomain } from './trade/index.js';
import { webhooksDomain } from './webhooks/index.js';

export const DOMAINS = [tenantsDomain, authDomain, jobsDomain, webhooksDomain, billingDomain, simaDomain, tradeDomain, landedCostDomain, signupDomain, shipDomain, classificationDomain] as const;

type Manifest = (typeof DOMAINS)[number];

/** What each domain builds, by name: what the composition root hands a domain that needs it. */
export type BuiltDomains = { [M in Manifest as M['name']]: ReturnType<M['create']> };

type PeersOf<M> = M extends DomainManifest<string, DomainModule, infer Peers> ? Peers : never;
/** The domains whose `create` takes a peer other than what the domain of that name builds (never: none). */
type MismatchedPeers = { [M in Manifest as M['name']]: BuiltDomains extends PeersOf<M> ? never : M['name'] }[Manifest['name']];
/** Compiles only while every domain's peers are what the domains it names build. */
const PEERS_MATCH: [MismatchedPeers] extends [never] ? true : { mismatchedPeersOf: MismatchedPeers } = true;

/** The manifests, each after the ones it needs, otherwise in list order. */
export function buildOrder<M extends { readonly name: string; readonly needs: readonly string[] }>(manifests: readonly M[]): M[] {
  const names = new Set(manifests.map((m) => m.name));
  if (names.size !== manifests.length) throw new Error('two domain manifests share a name');
  for (const m of manifests) for (const need of m.needs) if (!names.has(need)) throw new Error(`domain ${m.name} needs ${need}, which no manifest names`);
  const order: M[] = [];
  const built = new Set<string>();
  while (order.length < manifests.length) {
    const next = manifests.find((m) => !built.has(m.name) && m.needs.every((need) => built.has(need)));
    if (!next) throw new Error(`domains that need each other: ${manifests.filter((m) => !built.has(m.name)).map((m) => m.name).join(', ')}`);
    order.push(next);
    built.add(next.name);
  }
  return order;
}

/** The contract's x-lifecycle names of the machines the domains run (the transition log's `machine`). */
export const LIFECYCLE_NAMES: readonly string[] = DOMAINS.flatMap((d) => Object.keys(d.lifecycles));
