// The contract the suite certifies against: bundled document, compiled schemas (ajv, once), operations.
import { CONTROL_CONTRACT, loadContract, type OpenApiDocument } from '../../contracts/lib/bundle.js';
import { listOperations, type ContractOperation } from '../../contracts/lib/operations.js';
import type { ResponseCheckOptions } from '../../contracts/lib/response-check.js';
import { createContractSchemas, type ContractSchemas } from '../../contracts/lib/schemas.js';

export interface LoadedContract {
  version: string;
  doc: OpenApiDocument;
  schemas: ContractSchemas;
  operations: ContractOperation[];
  operation(operationId: string): ContractOperation | undefined;
  /** How responses are held to the contract (response-check.ts): absent, to all of it. */
  responseCheck?: ResponseCheckOptions;
}

/**
 * The contract as a run in `profile` holds responses to it: our own sandbox (the simulator profile) to all
 * of it, any other deployment only to what the spec fixes (contracts/README.md, "Vendor extensions": the
 * parts marked x-sandbox-defined are our choices where the spec says "not shown").
 */
export function contractForProfile(contract: LoadedContract, profile: string): LoadedContract {
  return profile === 'simulator' ? contract : { ...contract, responseCheck: { specOnly: true } };
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
