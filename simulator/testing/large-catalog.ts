// A large catalog CSV for the upload tests and benchmarks (spec 8.3: uploads are capped at 50 MB), written
// row by row so the file is never held in memory by whoever makes it.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** Writes `catalog-excel` rows (spec 4.3 columns) until the file reaches `targetBytes` (or `maxRows`); answers the row count. */
export async function writeLargeCatalogCsv(file: string, targetBytes: number, maxRows = Number.POSITIVE_INFINITY): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  let rows = 0;
  const write = async (line: string) => {
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  };
  await write('sku,productName,hsCode,countryOfOrigin,materialType,annualImportValue,currency\n');
  while (bytes < targetBytes && rows < maxRows) {
    rows += 1;
    const n = String(rows).padStart(7, '0');
    await write(`LRG-${n},"Upholstered chair ${n}, fabric, large catalog",9401.61.10.90,${rows % 3 ? 'CN' : 'VN'},upholstered,${1000 + (rows % 9000)},CAD\n`);
  }
  out.end();
  await once(out, 'finish');
  return rows;
}

/** Origins and products a large feed cycles through (codes as in fixtures/trade/sample-feeds.ts). */
const FEED_PRODUCTS = [
  ['Men\'s crew-neck T-shirt, knitted, cotton', '6109.10.00', 'cotton'],
  ['Women\'s cardigan, knitted, cotton', '6110.20', 'cotton'],
  ['Upholstered lounge chair, wood frame', '', 'wood'],
  ['Running shoe, textile upper, rubber sole', '6404.11', 'textile'],
  ['Hex bolt M10, zinc plated, box of 100', '7318.15.20', 'steel'],
] as const;
const FEED_ORIGINS = ['CN', 'VN', 'BD', 'IN', 'TW'] as const;

/** Writes a trade feed (spec 4.4 columns) of `rows` SKUs, one in five without an HS code; answers its size in bytes. */
export async function writeLargeFeedCsv(file: string, rows: number): Promise<number> {
  return (await writeFeed(file, rows, Number.POSITIVE_INFINITY)).bytes;
}

/** Writes feed rows as writeLargeFeedCsv does until the file reaches `targetBytes`; answers the row count. */
export async function writeLargeFeedCsvOfSize(file: string, targetBytes: number): Promise<number> {
  return (await writeFeed(file, Number.POSITIVE_INFINITY, targetBytes)).rows;
}

async function writeFeed(file: string, maxRows: number, targetBytes: number): Promise<{ rows: number; bytes: number }> {
  const out = createWriteStream(file);
  let bytes = 0;
  const write = async (line: string) => {
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  };
  await write('sku,productName,hsCode,originCountry,destinationCountry,material\n');
  let i = 0;
  while (i < maxRows && bytes < targetBytes) {
    i += 1;
    const [name, hs, material] = FEED_PRODUCTS[i % FEED_PRODUCTS.length];
    const n = String(i).padStart(7, '0');
    await write(`FEED-${n},"${name} ${n}",${hs},${FEED_ORIGINS[i % FEED_ORIGINS.length]},${i % 2 ? 'CA' : 'US'},${material}\n`);
  }
  out.end();
  await once(out, 'finish');
  return { rows: i, bytes };
}
