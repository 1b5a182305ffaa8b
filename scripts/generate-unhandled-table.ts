// npm run docs:unhandled: rewrites the 501 table in simulator/README.md from the simulator.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderUnhandledTable, replaceUnhandledTable } from '../simulator/unhandled-table.js';

const file = 'simulator/README.md';
writeFileSync(file, replaceUnhandledTable(readFileSync(file, 'utf8'), await renderUnhandledTable()));
console.log(`updated ${file}`);
