// npx tsx scripts/make-catalog-samples.ts: writes the sample upload files of fixtures/catalog/ from the
// sandbox's sample catalog (fixtures/catalog/sample-catalog.ts), so they cite its sources and as-of date:
//   sample-catalog.csv            catalog-excel columns, plus `source` and `asOf` per row (ignored on upload)
//   sample-catalog-extended.xlsx  extended-excel columns under alias headers (`SKU`, `HS Code`, `Origin`) on a
//                                 sheet named Catalog, after an About sheet with the sources and as-of dates
// Destination countries, brands and restricted components in the XLSX are invented, like the products.
import { writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { SAMPLE_CATALOG, type SampleCatalogItem } from '#fixtures/catalog/sample-catalog.js';

/** One product per outcome under each authority (AT_RISK, NEEDS_REVIEW, CLEARED; see screening.test.ts). */
const SAMPLE_UPLOAD_SKUS = [
  'UDS-SOFABED-GRY-3S',
  'UDS-ARMCHAIR-BGE',
  'UDS-LOVESEAT-OAT',
  'RBR-10M-6M-TR',
  'NAIL-CL-16D-50LB',
  'NAIL-RF-11GA-COIL',
  'LMBR-SPF-2X4-8',
  'TEE-CTN-BLK-M',
] as const;

const items: SampleCatalogItem[] = SAMPLE_UPLOAD_SKUS.map((sku) => SAMPLE_CATALOG.find((i) => i.sku === sku)!);
const DIR = 'fixtures/catalog';

const csvCell = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

function writeCsv(): string {
  const columns = ['sku', 'productName', 'hsCode', 'countryOfOrigin', 'materialType', 'annualImportValue', 'currency', 'source', 'asOf'] as const;
  const lines = [columns.join(','), ...items.map((item) => columns.map((c) => csvCell(item[c])).join(','))];
  const file = `${DIR}/sample-catalog.csv`;
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** Invented extended attributes: where each product is sold, a brand, and restricted components. */
const extended = (item: SampleCatalogItem) => ({
  destination: item.currency === 'USD' ? 'US' : 'CA',
  brand: item.sku.startsWith('UDS') ? 'Northwind Home' : item.sku.startsWith('TEE') ? 'Northwind Basics' : 'Northwind Build',
  restricted: item.materialType === 'upholstered' ? 'flame retardant foam' : '',
});

async function writeXlsx(): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  // Fixed dates: regenerating the file changes it only when the data changes.
  workbook.created = workbook.modified = new Date(`${items[0].asOf}T00:00:00Z`);
  workbook.creator = 'trade-freight-sandbox scripts/make-catalog-samples.ts';
  const about = workbook.addWorksheet('About');
  about.addRow(['Sample catalog of the trade-freight sandbox (fixtures/catalog/sample-catalog.ts): invented products, real tariff codes.']);
  about.addRow(['Destination countries, brands and restricted components are invented.']);
  about.addRow([]);
  about.addRow(['SKU', 'Source of the classification', 'As of']);
  for (const item of items) about.addRow([item.sku, item.source, item.asOf]);

  const sheet = workbook.addWorksheet('Catalog');
  sheet.addRow(['SKU', 'Product Name', 'HS Code', 'Origin', 'Material', 'Annual Import Value', 'Currency', 'Destination Country', 'Brand', 'Restricted Components']);
  for (const item of items) {
    const x = extended(item);
    sheet.addRow([item.sku, item.productName, item.hsCode, item.countryOfOrigin ?? '', item.materialType ?? '', item.annualImportValue, item.currency, x.destination, x.brand, x.restricted]);
  }
  const file = `${DIR}/sample-catalog-extended.xlsx`;
  await workbook.xlsx.writeFile(file);
  return file;
}

console.log(`wrote ${writeCsv()} and ${await writeXlsx()}`);
