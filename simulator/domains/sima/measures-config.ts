// The measures config version a tenant's screenings run under (spec 2.4 `simaConfigVersion`, `isStale`).
// Every tenant starts on the version of the measure table in fixtures; the control API can publish a new
// one (sandbox-defined: the spec shows no operation), after which the tenant's current results screened
// under an older version are stale until screened again. One record per tenant (`simaMeasuresConfig`).
import { SIMA_MEASURES_VERSION } from '#fixtures/catalog/sima-measures.js';
import type { KernelDeps } from '../../kernel/deps.js';
import { actionNotAllowed } from '../../kernel/errors.js';
import { deleteIds } from '../../kernel/store/delete-matching.js';
import type { SimaResultStore } from './sima-result.store.js';

interface MeasuresConfigRecord {
  /** The tenant id: one version in force per tenant. */
  id: string;
  rev?: number;
  version: string;
  previousVersion: string;
  publishedAt: string;
  note: string | null;
}

export interface PublishedMeasuresConfig {
  tenantId: string;
  configVersion: string;
  previousVersion: string;
  publishedAt: string;
  note: string | null;
  resultsMarkedStale: number;
}

/** 2026.11.1 -> 2026.11.2; a version not ending in a number gets `.2`. */
export function nextVersion(version: string): string {
  const match = /^(.*?)(\d+)$/.exec(version);
  return match ? `${match[1]}${Number(match[2]) + 1}` : `${version}.2`;
}

export function measuresConfig(deps: KernelDeps, results: SimaResultStore) {
  const configs = deps.store.collection<MeasuresConfigRecord>('simaMeasuresConfig');
  const versionOf = async (tenantId: string) => (await configs.get(tenantId))?.version ?? SIMA_MEASURES_VERSION;

  return {
    versionOf,
    /**
     * Publishes a new version for the tenant, then marks its older current results stale. A screening that
     * records a result meanwhile checks the version again after writing (sima-validation.processor.ts), so
     * either this walk or that check sees the other's write.
     */
    async publish(tenantId: string, request: { version?: string; note?: string | null }): Promise<PublishedMeasuresConfig> {
      const publishedAt = deps.clocks.of(tenantId).nowIso();
      let record: MeasuresConfigRecord | undefined;
      for (let attempt = 0; attempt < 5 && !record; attempt++) {
        const current = await configs.get(tenantId);
        const previousVersion = current?.version ?? SIMA_MEASURES_VERSION;
        const version = request.version ?? nextVersion(previousVersion);
        if (version === previousVersion) throw actionNotAllowed(`measures config version ${version} is already in force`, { currentState: previousVersion });
        const next = { id: tenantId, version, previousVersion, publishedAt, note: request.note ?? null };
        // Insert the first time, compare-and-set afterwards: two concurrent publishes cannot both win.
        record = (current ? await configs.update({ ...next, rev: current.rev }) : await configs.create(next)) ?? undefined;
      }
      if (!record) throw actionNotAllowed('the measures config kept changing while it was published; try again', {});
      const resultsMarkedStale = await results.markStale(tenantId, record.version);
      return { tenantId, configVersion: record.version, previousVersion: record.previousVersion, publishedAt, note: record.note, resultsMarkedStale };
    },
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's configuration (its id is the tenant's). */
    purgeTenant: (tenantId: string) => deleteIds(configs, [tenantId]),
  };
}

export type MeasuresConfig = ReturnType<typeof measuresConfig>;
