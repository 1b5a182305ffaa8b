// npm run contracts:bundle [-- VERSION ...]: single-file copies under build/contracts/<version>/.
import path from 'node:path';
import { CONTRACT_VERSIONS } from '../contracts/lib/bundle.js';
import { writeBundledContract } from '../contracts/lib/bundle-files.js';

const versions = process.argv.slice(2).length ? process.argv.slice(2) : [...CONTRACT_VERSIONS];
for (const version of versions) console.log(`${version}: ${path.relative(process.cwd(), writeBundledContract(version))}`);
