import { describe, expect, it } from 'vitest';
import { allowTargets } from '../domains/webhooks/allow-targets.js';
import { WEBHOOK_CHAOS_KEY, webhookChaosIn, webhookChaosSetting } from '../domains/webhooks/webhook-chaos.js';
import { createDefects } from '../kernel/defects.js';
import { createTestDeps } from '../testing/kernel.js';
import { memoryShared } from '../testing/memory-shared.js';
import { clusterSync } from './cluster-sync.js';
import { DEFECT_CATALOGUE, DEFECT_IDS } from './defects.catalogue.js';

/** Two instances over one store, each with its own memory of the control state. */
async function twoInstances() {
  const base = await createTestDeps();
  const shared = memoryShared(base.store);
  const make = (name: string) => {
    const deps = { ...base, store: shared.instance(name), defects: createDefects([], DEFECT_CATALOGUE) };
    const targets = allowTargets([]);
    const seen = { clockRestores: 0, forgotten: 0 };
    const sync = clusterSync({ deps, allowTargets: targets, restoreClocks: async () => void seen.clockRestores++, forgetSandbox: () => void seen.forgotten++ });
    return { deps, targets, seen, sync };
  };
  return [make('a'), make('b')] as const;
}

describe('the cluster control sync', () => {
  it('carries defects, tenant faults, the header allowance and the allow list from one instance to another', async () => {
    const [a, b] = await twoInstances();
    a.deps.defects.set([DEFECT_IDS[0]]);
    a.deps.defects.setTenant('tenant-1', { defects: [DEFECT_IDS[1]], settings: { [WEBHOOK_CHAOS_KEY]: webhookChaosSetting({ duplicate: true }) } });
    a.deps.defects.allowHeader(true);
    a.targets.replace(['127.0.0.1:9999']);
    await a.sync.publish();
    await b.sync.refresh();
    expect(b.deps.defects.snapshot()).toEqual(a.deps.defects.snapshot());
    expect(webhookChaosIn(b.deps.defects.tenant('tenant-1')).duplicate).toBe(true);
    expect(b.targets.list()).toEqual(['127.0.0.1:9999']);
    expect(b.seen.clockRestores).toBe(1);
  });

  it('applies nothing again until the state moves', async () => {
    const [a, b] = await twoInstances();
    await a.sync.publish();
    await b.sync.refresh();
    await b.sync.refresh();
    expect(b.seen.clockRestores).toBe(1);
    a.deps.defects.set([DEFECT_IDS[2]]);
    await a.sync.publish();
    await b.sync.refresh();
    expect(b.seen.clockRestores).toBe(2);
    expect(b.deps.defects.active()).toEqual([DEFECT_IDS[2]]);
  });

  it('tells the other instances to forget the old sandbox after a reset, even though the reset cleared the store', async () => {
    const [a, b] = await twoInstances();
    a.deps.defects.set([DEFECT_IDS[0]]);
    await a.sync.publish();
    await b.sync.refresh();
    await a.deps.store.clear();
    a.deps.defects.set([]);
    await a.sync.publish('reset');
    await b.sync.refresh();
    expect(b.seen.forgotten).toBe(1);
    expect(b.deps.defects.active()).toEqual([]);
  });

  it('does nothing on a store one process owns', async () => {
    const deps = await createTestDeps();
    const sync = clusterSync({ deps, allowTargets: allowTargets([]), restoreClocks: async () => {}, forgetSandbox: () => {} });
    expect(sync.enabled).toBe(false);
    await sync.publish();
    expect(await deps.store.collection('clusterControl').get('control')).toBeUndefined();
  });
});
