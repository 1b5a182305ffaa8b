import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS, loadContract, isObject } from './lib/bundle.js';
import { writeBundledContract } from './lib/bundle-files.js';
import { buildExampleRequest } from './lib/example-request.js';
import { deref, listOperations, type ContractOperation } from './lib/operations.js';
import { startPrism, type PrismServer } from './lib/prism.js';
import { createContractSchemas, formatAjvErrors } from './lib/schemas.js';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';

// Prism mocks each bundled version; one request per tag must get a 2xx whose body is valid against the
// contract. This proves the bundled documents are usable by third-party tooling, not only by ours.
const outDir = mkdtempSync(path.join(os.tmpdir(), 'contracts-'));

/** One representative operation per tag: the first GET, else the first operation. */
function onePerTag(ops: ContractOperation[]): ContractOperation[] {
  const byTag = new Map<string, ContractOperation>();
  for (const op of ops) {
    const tag = op.tags[0] ?? 'untagged';
    const current = byTag.get(tag);
    if (!current || (current.method !== 'get' && op.method === 'get')) byTag.set(tag, op);
  }
  return [...byTag.values()];
}

describe.each(CONTRACT_VERSIONS)('prism mock of %s', (version) => {
  const doc = loadContract(version);
  const schemas = createContractSchemas(doc);
  let prism: PrismServer;

  beforeAll(async () => {
    prism = await startPrism({ mode: 'mock', contractFile: writeBundledContract(version, outDir) });
  });
  afterAll(async () => prism?.stop());

  it.each(onePerTag(listOperations(doc)).map((op) => [op.tags[0], op.operationId, op] as const))(
    'answers %s (%s) with a schema-valid example',
    async (_tag, _id, op) => {
      const request = buildExampleRequest(doc, op);
      const response = await fetch(prism.url + request.path, { method: request.method, headers: request.headers, body: request.body });
      const text = await response.text();
      expect(response.status, `${request.method} ${request.path} -> ${response.status}: ${text}\n${prism.output().slice(-2000)}`).toBeLessThan(300);
      const declared = deref(doc, (op.operation.responses as Record<string, never>)[String(response.status)]);
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0];
      const media = isObject(declared) && isObject(declared.content) ? declared.content[mediaType] : undefined;
      expect(media, `status ${response.status} with ${mediaType} is documented`).toBeTruthy();
      if (isObject(media) && media.schema) {
        const validate = schemas.validator(media.schema);
        const body = mediaType.endsWith('json') ? JSON.parse(text) : text;
        expect(validate(body), formatAjvErrors(validate.errors)).toBe(true);
      }
    },
  );
});
