// A large catalog CSV for the upload tests and benchmarks (spec 8.3: uploads are capped at 50 MB), written
// row by row so the file is never held in memory by whoever makes it.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** Writes `catalog-excel` rows (spec 4.3 columns) until the file reaches `targetBytes`; answers the row count. */
export async function writeLargeCatalogCsv(file: string, targetBytes: number): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  let rows = 0;
  const write = async (line: string) => {
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  };
  await write('sku,productName,hsCode,countryOfOrigin,materialType,annualImportValue,currency\n');
  while (bytes < targetBytes) {
    rows += 1;
    const n = String(rows).padStart(7, '0');
    await write(`LRG-${n},"Upholstered chair ${n}, fabric, large catalog",9401.61.10.90,${rows % 3 ? 'CN' : 'VN'},upholstered,${1000 + (rows % 9000)},CAD\n`);
  }
  out.end();
  await once(out, 'finish');
  return rows;
}
