// Reads one side of a comparison: a contract root file (bundled here), a version folder (its openapi.yaml),
// a single-file bundle (JSON or YAML), or a git revision plus a path (`REV:path`), read from the repository
// at that revision, so CI can compare the merge base with the working tree.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleContract, CONTRACTS_DIR, isObject, readYamlFile, type OpenApiDocument } from '../lib/bundle.js';

export interface DiffInput {
  label: string;
  doc: OpenApiDocument;
}

const REPO_ROOT = path.resolve(CONTRACTS_DIR, '..');

export function loadDiffInput(spec: string, cwd = process.cwd()): DiffInput {
  const local = path.resolve(cwd, spec);
  if (existsSync(local)) return { label: spec, doc: loadLocal(local) };
  const revision = /^([^:]+):(.+)$/.exec(spec);
  if (revision) return { label: spec, doc: loadAtRevision(revision[1], revision[2], cwd) };
  throw new Error(`${spec} is neither a file or folder nor REV:path`);
}

function loadLocal(target: string): OpenApiDocument {
  const file = statSync(target).isDirectory() ? path.join(target, 'openapi.yaml') : target;
  if (!existsSync(file)) throw new Error(`${target} has no openapi.yaml`);
  const parsed = readYamlFile(file); // JSON is YAML
  if (!isObject(parsed) || typeof parsed.openapi !== 'string') throw new Error(`${file} is not an OpenAPI document`);
  // A root document inside a contracts tree references components by file: bundle it. A single-file
  // bundle (only local refs) is used as it is.
  const hasFileRefs = JSON.stringify(parsed).match(/"\$ref":"(?!#)/);
  return (hasFileRefs ? bundleContract(file) : parsed) as OpenApiDocument;
}

/** Extracts the contracts tree at `rev` into a temp folder and loads `file` from there. */
function loadAtRevision(rev: string, file: string, cwd: string): OpenApiDocument {
  const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'buffer', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  const top = git('rev-parse', '--show-toplevel').toString().trim();
  const relative = path.relative(top, path.resolve(cwd, file)).split(path.sep).join('/');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'contract-rev-'));
  const archive = git('archive', '--format=tar', rev, '--', relative.split('/')[0]);
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const target = path.join(dir, relative);
  if (!existsSync(target)) throw new Error(`${file} does not exist at ${rev}`);
  return loadLocal(target);
}

export { REPO_ROOT };
