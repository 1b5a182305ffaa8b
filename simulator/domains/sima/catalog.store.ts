// The tenant catalog SIMA screens (`catalogItems`): the only file that touches it. Each tenant starts with
// the sandbox's sample catalog, seeded the first time its catalog is needed.
import { SAMPLE_CATALOG } from '#fixtures/catalog/sample-catalog.js';
import type { KernelDeps } from '../../kernel/deps.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';

export interface CatalogItemRecord {
  /** `${tenantId}/${sku}`: one item per SKU and tenant. */
  id: string;
  rev?: number;
  tenantId: string;
  sku: string;
  productName: string;
  hsCode: string | null;
  countryOfOrigin: string | null;
  materialType: string | null;
  annualImportValue: number | null;
  currency: string | null;
  /** extended-excel uploads only (catalog-columns.ts): where the goods are imported into. */
  destinationCountry?: string | null;
  /** extended-excel uploads only: the file's other columns by normalized header (`brand`, `restrictedComponents`). */
  attributes?: Record<string, string>;
  /** Where the item came from (the sample catalog's source note, or an upload). */
  source: string;
  /** The upload job that wrote the item last, and whether the item was there before that job (a re-run
   *  after a crash counts what its first run found: jobs.settlement.ts existedBeforeJob). Never sent. */
  jobId?: string;
  existedBefore?: boolean;
  createdAt: string;
  updatedAt: string;
}

const idOf = (tenantId: string, sku: string) => `${tenantId}/${sku}`;

export function catalogStore(deps: KernelDeps) {
  const items = deps.store.collection<CatalogItemRecord, 'tenantId' | 'sku'>('catalogItems', {
    fields: { tenantId: (i) => i.tenantId, sku: (i) => i.sku },
    indexes: { byTenant: { keys: ['tenantId'], order: [['sku', 'asc']] } },
  });

  // A large upload writes thousands of items per millisecond: they share one timestamp string, not a copy
  // each (issue 15: peak RSS of a 50 MB catalog upload).
  let lastNow = '';
  const nowOf = (tenantId: string) => {
    const now = deps.clocks.of(tenantId).nowIso();
    return now === lastNow ? lastNow : (lastNow = now);
  };

  return {
    /** Seeds the sample catalog for a tenant that has none yet (same sample for every tenant). */
    async ensureSeeded(tenantId: string): Promise<void> {
      if (await items.first({ where: { tenantId } })) return; // any item: an index step, not a count
      const now = deps.clocks.of(tenantId).nowIso();
      for (const sample of SAMPLE_CATALOG) {
        // create(): a concurrent seeding of the same tenant keeps the first item written.
        await items.create({
          id: idOf(tenantId, sample.sku),
          tenantId,
          sku: sample.sku,
          productName: sample.productName,
          hsCode: sample.hsCode,
          countryOfOrigin: sample.countryOfOrigin,
          materialType: sample.materialType,
          annualImportValue: sample.annualImportValue,
          currency: sample.currency,
          source: `sample catalog (${sample.source}, as of ${sample.asOf})`,
          createdAt: now,
          updatedAt: now,
        });
      }
    },
    get: (tenantId: string, sku: string) => items.get(idOf(tenantId, sku)),
    /** Every SKU of the tenant, in SKU order. */
    all: async (tenantId: string) => (await items.query({ where: { tenantId } })).items,
    async put(tenantId: string, item: Omit<CatalogItemRecord, 'id' | 'tenantId' | 'createdAt' | 'updatedAt'>): Promise<CatalogItemRecord> {
      const now = nowOf(tenantId);
      const existing = await items.get(idOf(tenantId, item.sku));
      // Object.assign, not a spread and more properties: see the store's write (kernel/store/store.ts).
      return items.put(Object.assign({}, item, { id: idOf(tenantId, item.sku), tenantId, createdAt: existing?.createdAt ?? now, updatedAt: now }));
    },
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(items, { tenantId }),
  };
}

export type CatalogStore = ReturnType<typeof catalogStore>;
