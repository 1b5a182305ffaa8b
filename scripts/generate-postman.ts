// npm run contracts:postman: writes contracts/v1.3.0/postman.json (the collection) and
// postman.environment.json beside it (scripts/postman/collection.ts says what is in them and why committed).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCollection, buildEnvironment, POSTMAN_VERSION, postmanText } from './postman/collection.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'contracts', POSTMAN_VERSION);
const collection = await buildCollection();
await writeFile(path.join(dir, 'postman.json'), postmanText(collection));
await writeFile(path.join(dir, 'postman.environment.json'), postmanText(buildEnvironment()));
console.log(`wrote contracts/${POSTMAN_VERSION}/postman.json (${(collection.item as unknown[]).length} folders) and postman.environment.json`);
