// The domain manifests (domain.ts, manifests.ts): every manifest declares every part, what is derived from
// them (the composition root, the defect catalogue, the response defects, the test values, the tenant
// purge, the lifecycle names) is built from them, and what a manifest says matches what its domain does
// (the machines its stores track, the peers it is built from).
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS, loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycleNames } from '../../contracts/lib/lifecycles.js';
import { DEFECT_CATALOGUE } from '../control/defects.catalogue.js';
import { PURGE_ORDER, tenantPurge } from '../control/tenant-purge.js';
import { TEST_VALUES } from '../control/test-values.js';
import type { KernelDeps } from '../kernel/deps.js';
import { KERNEL_DEFECTS, KERNEL_RESPONSE_DEFECTS, KERNEL_VARIANTS } from '../kernel/kernel.defects.js';
import { transitionLog } from '../kernel/transition-log.js';
import { createTestDeps } from '../testing/kernel.js';
import type { DomainManifest, DomainModule } from './domain.js';
import { createDomains } from './index.js';
import { buildOrder, DOMAINS, LIFECYCLE_NAMES } from './manifests.js';

/** Every part of a manifest. The type below fails to compile when DomainManifest gains a part not listed here. */
const PARTS = ['name', 'needs', 'create', 'defects', 'responseDefects', 'testValues', 'lifecycles', 'purgeTenant'] as const;
type Unlisted = Exclude<keyof DomainManifest, (typeof PARTS)[number]>;
const PARTS_COMPLETE: [Unlisted] extends [never] ? true : { unlistedParts: Unlisted } = true;

let deps: KernelDeps | undefined;
afterEach(async () => {
  await deps?.store.close();
  deps = undefined;
});

/** Builds each domain as the composition root does, noting the machines each one's stores track. */
async function buildNotingMachines() {
  deps = await createTestDeps();
  const log = transitionLog(deps);
  const track = log.tracked;
  const tracked = new Map<string, string[]>(DOMAINS.map((d) => [d.name, []]));
  let building = '';
  log.tracked = (collection, machine) => {
    tracked.get(building)!.push(machine.machine);
    return track(collection, machine);
  };
  const built: Record<string, DomainModule> = {};
  try {
    for (const manifest of buildOrder(DOMAINS)) {
      building = manifest.name;
      const peers = Object.fromEntries(manifest.needs.map((name) => [name, built[name]]));
      built[manifest.name] = (manifest.create as (deps: KernelDeps, peers: object) => DomainModule)(deps, peers);
    }
  } finally {
    log.tracked = track;
  }
  return tracked;
}

describe('the domain manifests', () => {
  it('each declare every part (an empty list where the domain has none)', () => {
    expect(PARTS_COMPLETE).toBe(true);
    for (const manifest of DOMAINS) {
      for (const part of PARTS) expect(manifest[part], `${manifest.name}.${part}`).toBeDefined();
      expect(Array.isArray(manifest.defects) && Array.isArray(manifest.testValues) && typeof manifest.lifecycles === 'object', manifest.name).toBe(true);
      expect(Array.isArray(manifest.responseDefects()), manifest.name).toBe(true);
      expect(typeof manifest.create === 'function' && typeof manifest.purgeTenant === 'function', manifest.name).toBe(true);
    }
    expect(new Set(DOMAINS.map((d) => d.name)).size).toBe(DOMAINS.length);
  });

  it('build the composition root: every domain under its name, every handler served once, started and stopped', async () => {
    deps = await createTestDeps();
    const domains = createDomains(deps);
    for (const manifest of DOMAINS) expect(domains[manifest.name as keyof typeof domains], manifest.name).toBeDefined();
    const served = Object.keys(domains.handlers);
    expect(new Set(served).size).toBe(served.length);
    expect(served.length).toBeGreaterThan(20);
    await domains.start();
    await domains.stop();
  });

  it('give the defect catalogue: the kernel first, then each domain in list order', () => {
    expect(DEFECT_CATALOGUE).toEqual([...KERNEL_DEFECTS, ...KERNEL_VARIANTS, ...DOMAINS.flatMap((d) => d.defects)]);
    expect(DEFECT_CATALOGUE.slice(0, KERNEL_DEFECTS.length)).toEqual(KERNEL_DEFECTS);
    expect(new Set(DEFECT_CATALOGUE.map((d) => d.id)).size).toBe(DEFECT_CATALOGUE.length);
  });

  it("give the response defects, the kernel's last, each one a catalogue entry", async () => {
    deps = await createTestDeps();
    const ids = createDomains(deps).responseDefects.map((d) => d.id);
    expect(ids).toEqual([...DOMAINS.flatMap((d) => d.responseDefects()), ...KERNEL_RESPONSE_DEFECTS].map((d) => d.id));
    expect(ids.slice(-KERNEL_RESPONSE_DEFECTS.length)).toEqual(KERNEL_RESPONSE_DEFECTS.map((d) => d.id));
    const catalogued = new Set(DEFECT_CATALOGUE.map((d) => d.id));
    for (const id of ids) expect(catalogued.has(id), id).toBe(true);
  });

  it('give the test values, each id once', () => {
    expect(TEST_VALUES).toEqual(DOMAINS.flatMap((d) => d.testValues));
    expect(new Set(TEST_VALUES.map((v) => v.id)).size).toBe(TEST_VALUES.length);
  });

  it('name the lifecycles their stores track, and together every lifecycle a contract version declares', async () => {
    const tracked = await buildNotingMachines();
    for (const manifest of DOMAINS) expect([...new Set(tracked.get(manifest.name))].sort(), manifest.name).toEqual(Object.keys(manifest.lifecycles).sort());
    const declared = new Set(CONTRACT_VERSIONS.flatMap((version) => contractLifecycleNames(loadContract(version))));
    expect([...LIFECYCLE_NAMES].sort()).toEqual([...declared].sort());
  });

  it('are built each after the domains it needs, and refuse an unknown or circular need', () => {
    const order = buildOrder(DOMAINS).map((d) => d.name);
    for (const manifest of DOMAINS) for (const need of manifest.needs) expect(order.indexOf(need), `${manifest.name} needs ${need}`).toBeLessThan(order.indexOf(manifest.name));
    expect(() => buildOrder([{ name: 'a', needs: ['nobody'] }])).toThrow(/needs nobody/);
    expect(() => buildOrder([{ name: 'a', needs: ['b'] }, { name: 'b', needs: ['a'] }])).toThrow(/need each other/);
  });

  it('purge a tenant through their own stores, the tenant record last', async () => {
    expect(PURGE_ORDER.at(-1)?.name).toBe('tenants');
    expect(PURGE_ORDER.map((d) => d.name).sort()).toEqual(DOMAINS.map((d) => d.name).sort());
    deps = await createTestDeps();
    const domains = createDomains(deps);
    const tenant = await domains.tenants.create({ name: 'Purged' });
    const bystander = await domains.tenants.create({ name: 'Bystander' });
    await domains.auth.keys.create({ tenantId: tenant.id });
    await domains.auth.keys.create({ tenantId: bystander.id });
    // Every domain's purge runs over declared indexes only (an undeclared query throws).
    for (const manifest of DOMAINS) expect(await manifest.purgeTenant(deps, 'no-such-tenant'), manifest.name).toBe(0);
    expect(await tenantPurge(deps).purge(tenant.id)).toBe(2);
    expect(await domains.tenants.get(tenant.id)).toBeUndefined();
    expect(await domains.tenants.get(bystander.id)).toBeDefined();
  });
});
