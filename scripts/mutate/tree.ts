// A private copy of what the simulator needs to run, so that mutations never touch the working tree (other
// people and sessions run tests in it). The simulator, the contracts and the fixtures are copied, because
// the simulator imports them by relative path and Node follows symlinks to the real file (a symlinked
// `contracts/` importing `../simulator/...` would reach the unmutated tree); node_modules is only linked,
// entry by entry, so that its `.cache` is the copy's own (below).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
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

/**
 * node_modules as a folder of links to each installed package, with a `.cache` of its own. The contracts'
 * parsed bundles are cached in node_modules/.cache (contracts/lib/bundle.ts), keyed by a digest of the
 * contracts, and a process writing its key removes the others': with node_modules shared by several
 * worktrees whose contracts differ, the shared cache was missed at most starts (3 of a mutant's 10 s of
 * simulator start-up went to parsing the YAML again, measured 2026-11-27). A private cache is written by
 * the first start of the copy (the baseline) and read by every mutant after it.
 */
function linkPackages(from: string, to: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from)) if (entry !== '.cache') symlinkSync(path.join(from, entry), path.join(to, entry), 'dir');
}

export function copyTree(root = REPO_ROOT, label = 'mutate'): TreeCopy {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${label}-tree-`));
  try {
    for (const entry of COPIED) cpSync(path.join(root, entry), path.join(dir, entry), { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
    linkPackages(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
