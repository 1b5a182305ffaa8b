// Writes the single-file copy of each contract version (JSON and YAML) for Prism and other tools.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { CONTRACTS_DIR, loadContract } from './bundle.js';

const BUNDLE_DIR = path.resolve(CONTRACTS_DIR, '..', 'build', 'contracts');

/** Writes build/contracts/<version>/openapi.{json,yaml}; returns the JSON path. */
export function writeBundledContract(version: string, outDir = BUNDLE_DIR): string {
  const doc = loadContract(version);
  const dir = path.join(outDir, version);
  mkdirSync(dir, { recursive: true });
  const jsonPath = path.join(dir, 'openapi.json');
  writeFileSync(jsonPath, JSON.stringify(doc, null, 2) + '\n');
  writeFileSync(path.join(dir, 'openapi.yaml'), stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 }));
  return jsonPath;
}
