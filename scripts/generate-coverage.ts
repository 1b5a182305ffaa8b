// Writes contracts/COVERAGE.md from the contract documents.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONTRACTS_DIR } from '../contracts/lib/bundle.js';
import { renderCoverageTable } from '../contracts/lib/coverage.js';

const target = path.join(CONTRACTS_DIR, 'COVERAGE.md');
writeFileSync(target, renderCoverageTable());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
