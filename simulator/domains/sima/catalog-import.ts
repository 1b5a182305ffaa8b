// Writing an uploaded catalog file into the tenant catalog, row by row as the file streams (spec 4.3
// uploads; spec 2.2 reconciliation and skippedRows). Shared by the `catalog_upload` job and the
// `sima_validation` job of POST /api/upload, which then screens the SKUs written here. A file that cannot
// be a catalog (empty, no header naming a SKU column, a header and nothing else, unreadable) throws: the
// job FAILS with that message (spec 3.1), never a 500. Run again after a crash (issue 30 item 3), a job
// rewrites the items its earlier run wrote and counts each as created or updated by what that run found
// there (the item carries its job and whether it existed before it: jobs.settlement.ts existedBeforeJob).
import type { KernelDeps } from '../../kernel/deps.js';
import { COLUMN_ALIASES, COLUMN_SETS, columnOf, toCatalogItem, type CatalogAdapter, type CatalogColumn } from './catalog-columns.js';
import { internedValues } from '../../kernel/uploads/interned-values.js';
import { checkStored, headerWithout, readTableRows, skippedRowLog, type HeaderEvent, type SkippedRows } from '../../kernel/uploads/table-processor.js';
import type { StoredUpload } from '../../kernel/uploads/uploaded-file.js';
import { existedBeforeJob } from '../jobs/index.js';
import type { CatalogStore } from './catalog.store.js';

export type { StoredUpload } from '../../kernel/uploads/uploaded-file.js';

export interface CatalogImport {
  sheet: string | null;
  rowsUploaded: number;
  rowsSkipped: number;
  rowsDeduplicated: number;
  skusCreated: number;
  skusUpdated: number;
  skippedRows: SkippedRows;
  /** Header cells the adapter does not read (catalog-excel), and repeated columns. */
  ignoredColumns: string[];
  /** Catalog columns of the adapter the header lacks: their values are null. */
  missingColumns: CatalogColumn[];
  warnings: Record<string, number> | null;
  /** Distinct SKUs written, in file order. */
  skus: Set<string>;
}

/** Rows between store flushes and progress reports: bounded journal lines, visible progress. */
const BATCH = 500;

export async function importCatalogFile(
  deps: Pick<KernelDeps, 'store'>,
  catalog: CatalogStore,
  job: { tenantId: string; jobId: string; file: StoredUpload; adapter: CatalogAdapter; progress(percent: number): Promise<void> },
): Promise<CatalogImport> {
  const { file, adapter, tenantId } = job;
  const name = file.fileName;
  const send = 'send a header row (sku, productName, hsCode, ...) and one row per SKU';
  await checkStored(file, { empty: send, saysWhyGone: true });
  await catalog.ensureSeeded(tenantId); // a tenant starts with the sample catalog; the upload adds to it

  const skipped = skippedRowLog();
  const out: CatalogImport = { sheet: null, rowsUploaded: 0, rowsSkipped: 0, rowsDeduplicated: 0, skusCreated: 0, skusUpdated: 0, skippedRows: skipped.rows, ignoredColumns: [], missingColumns: [], warnings: null, skus: new Set() };
  const mapping = new Map<string, CatalogColumn | null>(); // header key -> column, or null for an attribute
  const source = `upload ${name} (${adapter}, job ${job.jobId})`;

  // Columns whose values repeat across a catalog share one string per value (interned-values.ts).
  const interned = internedValues();
  await readTableRows(file, { noContent: send, sheetRead: 'the sheet named Catalog is read, else the first sheet' }, {
    header: (event) => {
      out.sheet = event.sheet;
      readHeader(event, adapter, mapping, out, name);
    },
    row: async (event) => {
      const values: Partial<Record<CatalogColumn, string>> = {};
      const attributes: Record<string, string> = {};
      for (const [key, column] of mapping) {
        const value = event.values[key] ?? '';
        if (column) values[column] = value;
        else if (value !== '') attributes[key] = value;
      }
      const verdict = toCatalogItem(values, adapter, attributes);
      if (!verdict.ok) {
        out.rowsSkipped += 1;
        skipped.skip(verdict.reason, { row: event.line, reason: verdict.reason, sku: verdict.sku, field: verdict.field, value: verdict.value });
      } else if (out.skus.has(verdict.item.sku)) {
        out.rowsDeduplicated += 1; // the first row of a SKU wins; later ones are counted, not written
      } else {
        const item = interned.fields(verdict.item, ['hsCode', 'countryOfOrigin', 'materialType', 'currency', 'destinationCountry']);
        out.skus.add(verdict.item.sku);
        const before = await catalog.get(tenantId, verdict.item.sku);
        // catalog-excel does not read the extended columns: what an earlier extended upload set stays.
        const kept = adapter === 'catalog-excel' && before && (before.destinationCountry != null || before.attributes) ? { destinationCountry: before.destinationCountry ?? null, attributes: before.attributes } : null;
        // Object.assign, not spreads: one hidden class for every row (see the store's write, kernel/store/store.ts).
        const existedBefore = existedBeforeJob(before, job.jobId);
        await catalog.put(tenantId, Object.assign({}, kept, item, { source, jobId: job.jobId, existedBefore }));
        out.rowsUploaded += 1;
        if (existedBefore) out.skusUpdated += 1;
        else out.skusCreated += 1;
      }
    },
    batch: {
      rows: BATCH,
      step: async (event) => {
        await deps.store.flush();
        await job.progress(event.fraction * 100);
      },
    },
  });
  const warnings: Record<string, number> = {};
  if (out.ignoredColumns.length) warnings.ignoredColumns = out.ignoredColumns.length;
  if (out.missingColumns.length) warnings.missingColumns = out.missingColumns.length;
  out.warnings = Object.keys(warnings).length ? warnings : null;
  return out;
}

function readHeader(event: HeaderEvent, adapter: CatalogAdapter, mapping: Map<string, CatalogColumn | null>, out: CatalogImport, name: string) {
  const wanted = COLUMN_SETS[adapter];
  event.keys.forEach((key, i) => {
    if (key === '' || mapping.has(key)) return;
    const column = columnOf(key);
    const label = event.labels[i];
    if (column && wanted.includes(column)) {
      if ([...mapping.values()].includes(column)) out.ignoredColumns.push(label); // `SKU` and `Item SKU`: the first wins
      else mapping.set(key, column);
    } else if (adapter === 'extended-excel' && !column) mapping.set(key, null);
    else out.ignoredColumns.push(label);
  });
  if (![...mapping.values()].includes('sku')) {
    const where = event.sheet ? ` (sheet "${event.sheet}"; the sheet named Catalog is read, else the first sheet)` : '';
    throw headerWithout(name, event, { name: 'SKU', aliases: COLUMN_ALIASES.sku, where });
  }
  out.missingColumns = wanted.filter((c) => ![...mapping.values()].includes(c));
}
