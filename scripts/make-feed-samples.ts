// npx tsx scripts/make-feed-samples.ts: writes the sample trade feeds of fixtures/trade/sample-feeds.ts as
// CSV (csv-stringify) and XLSX (exceljs) files into fixtures/trade/. Each XLSX has the Feed sheet first
// (an upload reads the sheet named Catalog if there is one, else the first) and an About sheet after it
// naming the sources and the as-of date.
import { writeFileSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { FEED_COLUMNS, FEED_SAMPLES, HS_SOURCES } from '#fixtures/trade/sample-feeds.js';

const DIR = 'fixtures/trade';
for (const sample of FEED_SAMPLES) {
  writeFileSync(`${DIR}/${sample.name}.csv`, stringify(sample.rows, { header: true, columns: [...FEED_COLUMNS] }));
  const workbook = new ExcelJS.Workbook();
  const feed = workbook.addWorksheet('Feed');
  feed.addRow(['SKU', 'Product Name', 'HS Code', 'Origin Country', 'Destination Country', 'Material', 'Construction']);
  for (const r of sample.rows) feed.addRow(FEED_COLUMNS.map((c) => r[c]));
  const about = workbook.addWorksheet('About');
  about.addRows([['Sample trade feed', sample.name], ['What normalization makes of it', sample.expect], ['HS codes', HS_SOURCES.source], ['As of', HS_SOURCES.asOf], ['Products', 'invented']]);
  await workbook.xlsx.writeFile(`${DIR}/${sample.name}.xlsx`);
  console.log(`wrote ${DIR}/${sample.name}.csv and .xlsx (${sample.rows.length} rows)`);
}
