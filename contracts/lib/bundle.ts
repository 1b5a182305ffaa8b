// Builds a single-file OpenAPI document from a root document that references the shared components.
// Unlike a generic bundler, component names come from their key in the component files, so the bundled
// document reads `#/components/schemas/Job` and every version names a shared schema the same way.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type OpenApiDocument = JsonObject & { paths: JsonObject; components: JsonObject };

/** The contracts folder: this module's parent in the sources (contracts/lib/..), or, from a bundle built
 *  elsewhere in the project (build/simulator/main.mjs, scripts/build-simulator.mjs), the nearest ancestor's. */
export const CONTRACTS_DIR = (() => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (path.basename(dir) === 'contracts' && existsSync(path.join(dir, 'components'))) return dir;
    if (existsSync(path.join(dir, 'contracts', 'components'))) return path.join(dir, 'contracts');
  }
  return path.resolve(here, '..');
})();
export const CONTRACT_VERSIONS = ['v1.3.0', 'v1.2.0', 'v1.1.0'] as const;

/** Folders under contracts/components/ and the components section each one feeds. */
const COMPONENT_KINDS = new Set(['schemas', 'parameters', 'responses', 'headers', 'securitySchemes', 'requestBodies', 'examples']);
const INLINED_KINDS = new Set(['paths']);

/** The operator-only control API of the simulator: its own document, not a version of the public contract. */
export const CONTROL_CONTRACT = 'sandbox-control';
/** Routes the service keeps for dashboard principals, out of the public surface (spec 1, 5.5). */
export const DASHBOARD_CONTRACT = 'sandbox-dashboard';

export function rootDocumentPath(version: string): string {
  if (version === CONTROL_CONTRACT) return path.join(CONTRACTS_DIR, 'sandbox-control.openapi.yaml');
  if (version === DASHBOARD_CONTRACT) return path.join(CONTRACTS_DIR, 'sandbox-dashboard.openapi.yaml');
  return path.join(CONTRACTS_DIR, version, 'openapi.yaml');
}

export class ContractBundleError extends Error {}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The contracts folder a root document belongs to: the nearest ancestor holding `components/`. */
function contractsDirOf(rootFile: string): string {
  for (let dir = path.dirname(path.resolve(rootFile)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'components'))) return dir;
  }
  return CONTRACTS_DIR;
}

/** Bundles one root document. `readYaml` is injectable so tests can bundle broken fixtures; the components
 *  folder is found beside the root (so a contracts tree checked out elsewhere, e.g. from git, bundles too). */
export function bundleContract(rootFile: string, readYaml: (file: string) => Json = readYamlFile, contractsDir = contractsDirOf(rootFile)): OpenApiDocument {
  const cache = new Map<string, Json>();
  const load = (file: string): Json => {
    if (!cache.has(file)) cache.set(file, readYaml(file));
    return cache.get(file)!;
  };
  const components: Record<string, JsonObject> = {};
  const origins = new Map<string, string>(); // "kind/name" -> "file#name", to catch a name used twice

  const resolvePointer = (file: string, fragment: string): Json => {
    let node: Json = load(file);
    for (const raw of fragment.replace(/^\//, '').split('/').filter(Boolean)) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (!isObject(node) || !(key in node)) throw new ContractBundleError(`unresolved $ref ${file}#${fragment}`);
      node = node[key];
    }
    return node;
  };

  const kindOf = (file: string): string => {
    const relative = path.relative(path.join(contractsDir, 'components'), file);
    const kind = relative.split(path.sep)[0];
    if (relative.startsWith('..') || !(COMPONENT_KINDS.has(kind) || INLINED_KINDS.has(kind))) {
      throw new ContractBundleError(`$ref target ${file} is not under contracts/components/<kind>/`);
    }
    return kind;
  };

  const register = (kind: string, name: string, file: string, fragment: string): string => {
    const key = `${kind}/${name}`;
    const origin = `${file}#${fragment}`;
    const known = origins.get(key);
    if (known && known !== origin) {
      throw new ContractBundleError(`component name ${key} is defined twice: ${known} and ${origin}`);
    }
    if (!known) {
      origins.set(key, origin);
      (components[kind] ??= {})[name] = {}; // placeholder first: recursive schemas terminate
      components[kind][name] = walk(resolvePointer(file, fragment), file);
    }
    return `#/components/${kind}/${name}`;
  };

  const walk = (node: Json, file: string): Json => {
    if (Array.isArray(node)) return node.map((item) => walk(item, file));
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string' && !ref.startsWith('#/components/')) {
      const [target, fragment = ''] = ref.split('#');
      const targetFile = target ? path.resolve(path.dirname(file), target) : file;
      const kind = kindOf(targetFile);
      const segments = fragment.split('/').filter(Boolean);
      if (segments.length !== 1) throw new ContractBundleError(`$ref ${ref} in ${file} must name one top-level key`);
      if (INLINED_KINDS.has(kind)) return walk(resolvePointer(targetFile, fragment), targetFile);
      const { $ref: _ignored, ...siblings } = node;
      return { $ref: register(kind, segments[0], targetFile, fragment), ...walkObject(siblings, file) };
    }
    return walkObject(node, file);
  };

  const walkObject = (node: JsonObject, file: string): JsonObject =>
    Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, file)]));

  const root = load(rootFile);
  if (!isObject(root)) throw new ContractBundleError(`${rootFile} is not a YAML mapping`);
  // Root-level component entries keep the name the root gives them (security scheme names are API-visible).
  const rootComponents = isObject(root.components) ? root.components : {};
  for (const [kind, entries] of Object.entries(rootComponents)) {
    if (!isObject(entries)) continue;
    for (const [name, entry] of Object.entries(entries)) {
      if (isObject(entry) && typeof entry.$ref === 'string') {
        const [target, fragment = ''] = entry.$ref.split('#');
        register(kind, name, path.resolve(path.dirname(rootFile), target), fragment);
      } else {
        (components[kind] ??= {})[name] = walk(entry, rootFile);
      }
    }
  }
  const { components: _rootComponents, ...rest } = root;
  const bundled = walkObject(rest, rootFile);
  return { ...bundled, components: sortComponents(components) } as OpenApiDocument;
}

function sortComponents(components: Record<string, JsonObject>): JsonObject {
  const sorted: JsonObject = {};
  for (const kind of Object.keys(components).sort()) {
    sorted[kind] = Object.fromEntries(Object.keys(components[kind]).sort().map((name) => [name, components[kind][name]]));
  }
  return sorted;
}

export function readYamlFile(file: string): Json {
  try {
    return parse(readFileSync(file, 'utf8'), { merge: true }) as Json;
  } catch (error) {
    throw new ContractBundleError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

const bundleCache = new Map<string, OpenApiDocument>();

/** The bundled document of a contract version, cached per process and on disk. */
export function loadContract(version: string): OpenApiDocument {
  if (!bundleCache.has(version)) bundleCache.set(version, diskCachedBundle(version));
  return structuredClone(bundleCache.get(version)!);
}

// Parsing the YAML of five documents was about a fifth of the simulator's start-up (issue 15 item 2), and
// every test worker paid it again. The bundles are kept as JSON under node_modules/.cache, keyed by a digest
// of every YAML file of the contracts folder and of this module's source (a change to either is a new key),
// so a stale bundle is never read. The cache is an optimisation only: any failure falls back to bundling.
const CACHE_DIR = path.join(CONTRACTS_DIR, '..', 'node_modules', '.cache', 'tfas-contracts');
let digest: string | undefined;

function contractsDigest(): string {
  if (digest) return digest;
  // The TypeScript source, also when this code runs from the simulator's bundle: one key for both.
  const hash = createHash('sha256').update(readFileSync(path.join(CONTRACTS_DIR, 'lib', 'bundle.ts')));
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.name !== 'node_modules' && !e.name.startsWith('.'))
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.yaml') ? [path.join(dir, e.name)] : []));
  for (const file of walk(CONTRACTS_DIR).sort()) hash.update(`\0${path.relative(CONTRACTS_DIR, file)}\0`).update(readFileSync(file));
  return (digest = hash.digest('hex').slice(0, 20));
}

function diskCachedBundle(version: string): OpenApiDocument {
  let file: string;
  try {
    file = path.join(CACHE_DIR, `${version}.${contractsDigest()}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  } catch {
    return bundleContract(rootDocumentPath(version));
  }
  const doc = bundleContract(rootDocumentPath(version));
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written whole then renamed: a concurrent reader (another test worker) sees the old state or the new file.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(doc));
    renameSync(tmp, file);
    for (const old of readdirSync(CACHE_DIR)) if (old.startsWith(`${version}.`) && old.endsWith('.json') && !file.endsWith(`/${old}`)) rmSync(path.join(CACHE_DIR, old), { force: true });
  } catch {
    // read-only install, full disk: bundling each time is slower, not wrong
  }
  return doc;
}
