// npx tsx scripts/make-large-feed.ts FILE [ROWS]: writes a trade feed CSV of ROWS SKUs (default 200,000)
// for POST /api/trade/feeds/upload (spec 4.4), streamed row by row. `npm run bench:large -- --only feed`
// makes a 49 MB one itself and measures its normalization.
import { writeLargeFeedCsv } from '../simulator/testing/large-catalog.js';

const [file, rows = '200000'] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx scripts/make-large-feed.ts FILE [ROWS]');
const bytes = await writeLargeFeedCsv(file, Number(rows));
console.log(`wrote ${file}: ${rows} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
