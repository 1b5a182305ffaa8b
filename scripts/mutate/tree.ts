// A private copy of what the simulator needs to run, so that mutations never touch the working tree (other
// people and sessions run tests in it). The simulator, the contracts and the fixtures are copied, because
// the simulator imports them by relative path and Node follows symlinks to the real file (a symlinked
// `contracts/` importing `../simulator/...` would reach the unmutated tree); node_modules is only linked.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What `node --import tsx simulator/main.ts` reads, relative to the repository root. */
const COPIED = ['simulator', 'contracts', 'fixtures', 'package.json', 'tsconfig.json'];

export interface TreeCopy {
  dir: string;
  remove(): void;
}

export function copyTree(root = REPO_ROOT, label = 'mutate'): TreeCopy {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${label}-tree-`));
  try {
    for (const entry of COPIED) cpSync(path.join(root, entry), path.join(dir, entry), { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
