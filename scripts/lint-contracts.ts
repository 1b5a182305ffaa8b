// npm run contracts:lint: our Spectral ruleset over each bundled contract version.
import { CONTRACT_VERSIONS, loadContract } from '../contracts/lib/bundle.js';
import { lintContract } from '../contracts/lint/ruleset.js';

const versions = process.argv.slice(2).length ? process.argv.slice(2) : [...CONTRACT_VERSIONS];
let total = 0;
for (const version of versions) {
  const results = await lintContract(loadContract(version), `${version}/openapi.json`);
  total += results.length;
  console.log(`${version}: ${results.length ? `${results.length} problem(s)` : 'clean'}`);
  for (const r of results) console.log(`  ${r.severity === 0 ? 'error' : 'warning'} ${r.code} at ${r.path.join('.')}: ${r.message}`);
}
process.exit(total ? 1 : 0);
