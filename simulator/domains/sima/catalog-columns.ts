// The catalog adapters' column sets (spec 4.3 `sourceAdapter`: `catalog-excel` default, `extended-excel`;
// the spec names the adapters, not their columns: these are the sandbox's, documented in
// fixtures/catalog/README.md) and the rules that turn one file row into a catalog item or a skip reason.
import type { CatalogItemRecord } from './catalog.store.js';
import { MAX_SKU_LENGTH } from './sku.js';

export type CatalogAdapter = 'catalog-excel' | 'extended-excel';
export const CATALOG_ADAPTERS: readonly CatalogAdapter[] = ['catalog-excel', 'extended-excel'];

export type CatalogColumn = 'sku' | 'productName' | 'hsCode' | 'countryOfOrigin' | 'materialType' | 'annualImportValue' | 'currency' | 'destinationCountry';

const BASE: readonly CatalogColumn[] = ['sku', 'productName', 'hsCode', 'countryOfOrigin', 'materialType', 'annualImportValue', 'currency'];

/** The columns each adapter reads; `extended-excel` also keeps every other column as an attribute. */
export const COLUMN_SETS: Record<CatalogAdapter, readonly CatalogColumn[]> = {
  'catalog-excel': BASE,
  'extended-excel': [...BASE, 'destinationCountry'],
};

/**
 * Header spellings accepted for each column, as normalized keys (catalog-file.ts: case, spaces and
 * punctuation do not matter, so `SKU`, `Product Name`, `HS Code`, `hs_code` all match).
 */
export const COLUMN_ALIASES: Record<CatalogColumn, readonly string[]> = {
  sku: ['sku', 'skuCode', 'itemSku'],
  productName: ['productName', 'name', 'product', 'description', 'productDescription'],
  hsCode: ['hsCode', 'hs', 'htsCode', 'hts', 'tariffCode'],
  countryOfOrigin: ['countryOfOrigin', 'origin', 'originCountry', 'coo'],
  materialType: ['materialType', 'material'],
  annualImportValue: ['annualImportValue', 'importValue', 'annualValue'],
  currency: ['currency', 'currencyCode'],
  destinationCountry: ['destinationCountry', 'destination', 'destCountry'],
};

const BY_ALIAS = new Map<string, CatalogColumn>(
  (Object.entries(COLUMN_ALIASES) as Array<[CatalogColumn, readonly string[]]>).flatMap(([column, aliases]) => aliases.map((a) => [a.toLowerCase(), column] as const)),
);

/** The catalog column a normalized header key names, if any. */
export const columnOf = (key: string): CatalogColumn | undefined => BY_ALIAS.get(key.toLowerCase());

type CatalogRowItem = Omit<CatalogItemRecord, 'id' | 'tenantId' | 'createdAt' | 'updatedAt' | 'source'>;

/** Why a row was skipped (job `skippedRows.counts` keys, spec 2.2). */
type SkipReason =
  | 'missing_sku'
  | 'sku_too_long'
  | 'invalid_hs_code'
  | 'invalid_country_of_origin'
  | 'invalid_destination_country'
  | 'invalid_annual_import_value'
  | 'invalid_currency';

export type RowVerdict = { ok: true; item: CatalogRowItem } | { ok: false; reason: SkipReason; sku: string | null; field: CatalogColumn; value: string };

const blank = (v: string | undefined) => v === undefined || v.trim() === '';

/**
 * One row (values keyed by catalog column, plus `attributes` for extended-excel) as a catalog item, or the
 * first rule it breaks. Blank optional cells are null: screening asks for what is missing (NEEDS_REVIEW).
 */
export function toCatalogItem(values: Partial<Record<CatalogColumn, string>>, adapter: CatalogAdapter, attributes: Record<string, string>): RowVerdict {
  const sku = values.sku?.trim() ?? '';
  const refuse = (reason: SkipReason, field: CatalogColumn): RowVerdict => ({ ok: false, reason, sku: sku || null, field, value: (values[field] ?? '').slice(0, 100) });
  if (sku === '') return refuse('missing_sku', 'sku');
  if (sku.length > MAX_SKU_LENGTH) return refuse('sku_too_long', 'sku');

  // HS code: 4 to 10 digits once dots, spaces and dashes are dropped (heading to national tariff line).
  const hs = values.hsCode?.trim() ?? '';
  if (hs !== '' && !/^\d{4,10}$/.test(hs.replace(/[\s.-]/g, ''))) return refuse('invalid_hs_code', 'hsCode');
  const country = (field: 'countryOfOrigin' | 'destinationCountry') => (blank(values[field]) ? null : /^[A-Za-z]{2}$/.test(values[field]!.trim()) ? values[field]!.trim().toUpperCase() : undefined);
  const origin = country('countryOfOrigin');
  if (origin === undefined) return refuse('invalid_country_of_origin', 'countryOfOrigin');
  const destination = adapter === 'extended-excel' ? country('destinationCountry') : null;
  if (destination === undefined) return refuse('invalid_destination_country', 'destinationCountry');
  // A plain non-negative amount; thousands separators (`45,000`) and spaces are allowed.
  const rawValue = values.annualImportValue?.replace(/[,\s]/g, '') ?? '';
  if (rawValue !== '' && !/^\d+(\.\d+)?$/.test(rawValue)) return refuse('invalid_annual_import_value', 'annualImportValue');
  const currency = values.currency?.trim() ?? '';
  if (currency !== '' && !/^[A-Za-z]{3}$/.test(currency)) return refuse('invalid_currency', 'currency');

  return {
    ok: true,
    item: {
      sku,
      productName: values.productName?.trim() ?? '',
      hsCode: hs === '' ? null : hs,
      countryOfOrigin: origin,
      materialType: blank(values.materialType) ? null : values.materialType!.trim(),
      annualImportValue: rawValue === '' ? null : Number(rawValue),
      currency: currency === '' ? null : currency.toUpperCase(),
      ...(adapter === 'extended-excel' ? { destinationCountry: destination, attributes } : {}),
    },
  };
}
