// Rows another domain writes into a tenant's catalog (a trade feed's apply, spec 4.4; the advanced trade
// path's classification apply, 4.6): each row updates the named fields of the SKU's item and keeps the others
// (annual import value, material, attributes), or creates the item. SIMA screening reads the result.
import type { CatalogItemRecord, CatalogStore } from './catalog.store.js';

/** What a row may set; absent fields keep the item's value (or null for a new item). */
export interface CatalogRow {
  sku: string;
  productName?: string;
  hsCode?: string;
  countryOfOrigin?: string;
  destinationCountry?: string;
}

export interface CatalogApplyResult {
  created: number;
  updated: number;
}

export function catalogApply(catalog: CatalogStore) {
  return {
    get: (tenantId: string, sku: string): Promise<CatalogItemRecord | undefined> => catalog.get(tenantId, sku),
    /** Writes the rows in order (a later row of one SKU wins); `source` says where they came from. */
    async apply(tenantId: string, rows: readonly CatalogRow[], source: string): Promise<CatalogApplyResult> {
      // A tenant starts with the sample catalog: seed it first, or the first screening would add it on top.
      await catalog.ensureSeeded(tenantId);
      const result: CatalogApplyResult = { created: 0, updated: 0 };
      for (const row of rows) {
        const existing = await catalog.get(tenantId, row.sku);
        const defined = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined)) as CatalogRow;
        await catalog.put(tenantId, {
          productName: existing?.productName ?? row.sku,
          hsCode: existing?.hsCode ?? null,
          countryOfOrigin: existing?.countryOfOrigin ?? null,
          materialType: existing?.materialType ?? null,
          annualImportValue: existing?.annualImportValue ?? null,
          currency: existing?.currency ?? null,
          ...(existing?.destinationCountry !== undefined ? { destinationCountry: existing.destinationCountry } : {}),
          ...(existing?.attributes ? { attributes: existing.attributes } : {}),
          ...defined,
          source,
        });
        if (existing) result.updated += 1;
        else result.created += 1;
      }
      return result;
    },
  };
}

export type CatalogApply = ReturnType<typeof catalogApply>;
