// Checks every contract version: bundles it, validates it with swagger-parser, and runs the schema and
// example checks. Prints each problem and exits non-zero when there is one.
import SwaggerParser from '@apidevtools/swagger-parser';
import { bundleContract, CONTRACT_VERSIONS, rootDocumentPath } from '../contracts/lib/bundle.js';
import { checkContractDocument } from '../contracts/lib/check.js';

const versions = process.argv.slice(2).length ? process.argv.slice(2) : [...CONTRACT_VERSIONS];
let failures = 0;
for (const version of versions) {
  const report = (message: string) => {
    failures++;
    console.log(`  ✗ ${message}`);
  };
  console.log(`${version}`);
  try {
    const doc = bundleContract(rootDocumentPath(version));
    await SwaggerParser.validate(structuredClone(doc) as never).catch((e: Error) => report(`swagger-parser (bundled): ${e.message}`));
    await SwaggerParser.validate(rootDocumentPath(version)).catch((e: Error) => report(`swagger-parser (root): ${e.message}`));
    for (const problem of checkContractDocument(doc)) report(`${problem.where}: ${problem.message}`);
  } catch (error) {
    report((error as Error).message);
  }
}
console.log(failures ? `${failures} problem(s)` : 'all contract checks passed');
process.exit(failures ? 1 : 0);
