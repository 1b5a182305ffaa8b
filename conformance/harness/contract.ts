// The contract the suite certifies against: bundled document, compiled schemas (ajv, once), operations.
import { CONTROL_CONTRACT, loadContract, type OpenApiDocument } from '../../contracts/lib/bundle.js';
import { listOperations, type ContractOperation } from '../../contracts/lib/operations.js';
import { createContractSchemas, type ContractSchemas } from '../../contracts/lib/schemas.js';

export interface LoadedContract {
  version: string;
  doc: OpenApiDocument;
  schemas: ContractSchemas;
  operations: ContractOperation[];
  operation(operationId: string): ContractOperation | undefined;
}

const cache = new Map<string, LoadedContract>();

export function loadTargetContract(version: string): LoadedContract {
  if (!cache.has(version)) {
    const doc = loadContract(version);
    const operations = listOperations(doc);
    cache.set(version, {
      version,
      doc,
      schemas: createContractSchemas(doc),
      operations,
      operation: (id) => operations.find((op) => op.operationId === id),
    });
  }
  return cache.get(version)!;
}

export const loadControlContract = () => loadTargetContract(CONTROL_CONTRACT);
