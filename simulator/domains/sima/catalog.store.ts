// The tenant catalog SIMA screens (`catalogItems`): the only file that touches it. Each tenant starts with
// the sandbox's sample catalog, seeded the first time its catalog is needed.
import { SAMPLE_CATALOG } from '../../../fixtures/catalog/sample-catalog.js';
import type { KernelDeps } from '../../kernel/deps.js';

export interface CatalogItemRecord {
  /** `${tenantId}/${sku}`: one item per SKU and tenant. */
  id: string;
  tenantId: string;
  sku: string;
  productName: string;
  hsCode: string | null;
  countryOfOrigin: string | null;
  materialType: string | null;
  annualImportValue: number | null;
  currency: string | null;
  /** Where the item came from (the sample catalog's source note, or an upload). */
  source: string;
  createdAt: string;
  updatedAt: string;
}

const idOf = (tenantId: string, sku: string) => `${tenantId}/${sku}`;

export function catalogStore(deps: KernelDeps) {
  const items = deps.store.collection<CatalogItemRecord>('catalogItems', { indexes: { tenant: (i) => i.tenantId } });

  return {
    /** Seeds the sample catalog for a tenant that has none yet (same sample for every tenant). */
    ensureSeeded(tenantId: string): void {
      if (items.countBy('tenant', tenantId) > 0) return;
      const now = deps.clock.nowIso();
      for (const sample of SAMPLE_CATALOG) {
        items.put({
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
    all: (tenantId: string) => items.findBy('tenant', tenantId).sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0)),
    put(tenantId: string, item: Omit<CatalogItemRecord, 'id' | 'tenantId' | 'createdAt' | 'updatedAt'>): CatalogItemRecord {
      const now = deps.clock.nowIso();
      const existing = items.get(idOf(tenantId, item.sku));
      return items.put({ ...item, id: idOf(tenantId, item.sku), tenantId, createdAt: existing?.createdAt ?? now, updatedAt: now });
    },
  };
}

export type CatalogStore = ReturnType<typeof catalogStore>;
