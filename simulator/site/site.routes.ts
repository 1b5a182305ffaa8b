// The pages a newcomer finds by opening the sandbox in a browser (issue 16 items 1 and 3), none behind a
// token and none holding tenant data:
//   GET /                                  what is here: HTML for a browser, JSON for Accept: application/json
//   GET /healthz                           200 while the store writes, 503 once a write failed (health.ts)
//   GET /contracts/<name>/openapi.{json,yaml}   the bundled contracts (contracts/lib/bundle.ts), per version
//   GET /contracts/v1.3.0/postman.json, postman.environment.json   the Postman collection, baseUrl this sandbox
//   GET /docs[?version=]                   the API reference with "Try it out", Swagger UI from node_modules (docs/)
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Middleware } from 'koa';
import { stringify } from 'yaml';
import { CONTRACT_VERSIONS, CONTROL_CONTRACT, loadContract } from '../../contracts/lib/bundle.js';
import type { StoreHealth } from './health.js';
import { renderRootPage, rootIndex } from './root-page.js';

/** Contracts served under /contracts/: the public versions, then the control API's own document. */
const SERVED_CONTRACTS: readonly string[] = [...CONTRACT_VERSIONS, CONTROL_CONTRACT];

export interface SiteOptions {
  versions: Array<{ version: string; prefix: string }>;
  store: 'file' | 'memory' | 'postgres';
  storeHealth?: StoreHealth;
  /** performance.now() when the simulator was created: /healthz reports the time since. */
  startedAt: number;
}

/** This folder in the sources, or from the bundle npm start runs (build/simulator/main.mjs) the project's. */
const SITE_DIR = (() => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (path.basename(dir) === 'site' && existsSync(path.join(dir, 'docs', 'index.html'))) return dir;
    if (existsSync(path.join(dir, 'simulator', 'site', 'docs', 'index.html'))) return path.join(dir, 'simulator', 'site');
  }
  return here;
})();

/** Swagger UI as npm installed it (swagger-ui-dist): its bundle and stylesheet, served from node_modules. */
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Files under /docs/ and where each comes from; anything else there is 404. */
const DOCS_ASSETS: Readonly<Record<string, { file: string; type: string; vendor?: true }>> = {
  '': { file: path.join(SITE_DIR, 'docs', 'index.html'), type: 'text/html; charset=utf-8' },
  'docs.js': { file: path.join(SITE_DIR, 'docs', 'docs.js'), type: 'text/javascript; charset=utf-8' },
  'docs.css': { file: path.join(SITE_DIR, 'docs', 'docs.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: path.join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8', vendor: true },
  'swagger-ui.css': { file: path.join(SWAGGER_UI_DIR, 'swagger-ui.css'), type: 'text/css; charset=utf-8', vendor: true },
};
const vendorFiles = new Map<string, Promise<Buffer>>();
const readDocsAsset = (asset: { file: string; vendor?: true }) => {
  if (!asset.vendor) return readFile(asset.file);
  let kept = vendorFiles.get(asset.file);
  if (!kept) vendorFiles.set(asset.file, (kept = readFile(asset.file)));
  return kept;
};

// Same origin only: "Try it out" sends its requests with fetch to this sandbox (connect-src 'self'; the served
// contracts list this sandbox first among their servers). Swagger UI (React) sets inline styles and draws
// icons as data: images.
const DOCS_SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
const ROOT_SECURITY_HEADERS = { ...DOCS_SECURITY_HEADERS, 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'" };

const CONTRACT_PATH = /^\/contracts\/([A-Za-z0-9.-]+)\/openapi\.(json|yaml)$/;
/** The sandbox's own address for a contract it serves (its base path for a version, the root for the control API). */
function ownServer(name: string, origin: string, versions: SiteOptions['versions']): { url: string; description: string } | null {
  if (name === CONTROL_CONTRACT) return { url: origin, description: 'This sandbox (the address this document was fetched from)' };
  const served = versions.find((v) => v.version === name);
  return served ? { url: `${origin}${served.prefix}`, description: 'This sandbox (the address this document was fetched from)' } : null;
}

// Issue 29: a contract imported into a tool (Postman, an editor, a generator) targets the sandbox it came from,
// so its `servers` list that address first, then the document's own. The Host header picks the address, so the
// texts are kept for a few addresses only (a client sending many Host values cannot grow memory).
const SERIALIZED_KEPT = 16;
const serialized = new Map<string, string>();
/** A contract as served: bundled once, serialized once per format and address. */
function contractText(name: string, format: 'json' | 'yaml', origin: string, versions: SiteOptions['versions']): string {
  const key = `${name}.${format}.${origin}`;
  let text = serialized.get(key);
  if (text === undefined) {
    const doc = loadContract(name);
    const own = ownServer(name, origin, versions);
    const served = own ? { ...doc, servers: [own, ...((doc.servers as unknown[] | undefined) ?? [])] } : doc;
    text = format === 'json' ? JSON.stringify(served, null, 2) : stringify(served, { aliasDuplicateObjects: false, lineWidth: 0 });
    if (serialized.size >= SERIALIZED_KEPT) serialized.delete(serialized.keys().next().value!);
    serialized.set(key, text);
  }
  return text;
}

/** contracts/README.md: the decisions behind the contracts, which the documents' descriptions point to. */
const DECISIONS_PATH = '/contracts/README.md';
const DECISIONS_FILE = path.join(SITE_DIR, '..', '..', 'contracts', 'README.md');
let decisions: Promise<string> | undefined;
const decisionsText = () => (decisions ??= readFile(DECISIONS_FILE, 'utf8'));

// Issue 29 item 4: the Postman collection of v1.3.0 and its environment (npm run contracts:postman writes them,
// scripts/postman/), served with `baseUrl` set to this sandbox's address for that version, as the contracts'
// `servers` are. Kept per address under the same bound.
const POSTMAN_PATH = /^\/contracts\/(v1\.3\.0)\/(postman|postman\.environment)\.json$/;
const POSTMAN_DIR = path.join(SITE_DIR, '..', '..', 'contracts');
const postmanFiles = new Map<string, Promise<{ variable?: Array<{ key: string; value: unknown }>; values?: Array<{ key: string; value: unknown }> }>>();
const postmanSerialized = new Map<string, string>();
async function postmanText(version: string, file: string, baseUrl: string): Promise<string> {
  const key = `${version}/${file}.${baseUrl}`;
  let text = postmanSerialized.get(key);
  if (text === undefined) {
    const where = path.join(POSTMAN_DIR, version, `${file}.json`);
    let parsed = postmanFiles.get(where);
    if (!parsed) postmanFiles.set(where, (parsed = readFile(where, 'utf8').then((t) => JSON.parse(t))));
    const doc = await parsed;
    const withBase = (list?: Array<{ key: string; value: unknown }>) => list?.map((v) => (v.key === 'baseUrl' ? { ...v, value: baseUrl } : v));
    text = JSON.stringify({ ...doc, ...(doc.variable ? { variable: withBase(doc.variable) } : {}), ...(doc.values ? { values: withBase(doc.values) } : {}) }, null, 2);
    if (postmanSerialized.size >= SERIALIZED_KEPT) postmanSerialized.delete(postmanSerialized.keys().next().value!);
    postmanSerialized.set(key, text);
  }
  return text;
}

export function siteRoutes(options: SiteOptions): Middleware {
  const health = (ctx: Context) => {
    const failure = options.storeHealth?.failure() ?? null;
    ctx.status = failure ? 503 : 200;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      status: failure ? 'failing' : 'ok',
      contractVersions: options.versions.map((v) => v.version).filter((v, i, all) => all.indexOf(v) === i),
      store: options.store,
      ...(failure ? { storeFailure: failure } : {}),
      uptimeSeconds: Math.round((performance.now() - options.startedAt) / 100) / 10,
    };
  };
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/healthz') return health(ctx);
    if (ctx.path === '/') {
      // Koa 3's ctx.origin is the Origin request header; the address the client used is protocol + Host.
      const index = rootIndex(`${ctx.protocol}://${ctx.host}`, options.versions);
      // A browser asks for HTML first; anything that prefers JSON (curl -H, scripts) gets the same links as data.
      if (ctx.accepts('html', 'json') === 'json') {
        ctx.body = index;
      } else {
        ctx.set(ROOT_SECURITY_HEADERS);
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = renderRootPage(index);
      }
      ctx.vary('Accept');
      return;
    }
    if (ctx.path === DECISIONS_PATH) {
      ctx.type = 'text/markdown; charset=utf-8';
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.body = await decisionsText();
      return;
    }
    const contract = CONTRACT_PATH.exec(ctx.path);
    if (contract && SERVED_CONTRACTS.includes(contract[1])) {
      const format = contract[2] as 'json' | 'yaml';
      ctx.type = format === 'json' ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8';
      ctx.set('Access-Control-Allow-Origin', '*'); // a contract is public: editors and generators may fetch it
      ctx.body = contractText(contract[1], format, `${ctx.protocol}://${ctx.host}`, options.versions);
      return;
    }
    const postman = POSTMAN_PATH.exec(ctx.path);
    const postmanServer = postman ? ownServer(postman[1], `${ctx.protocol}://${ctx.host}`, options.versions) : null;
    if (postman && postmanServer) {
      ctx.type = 'application/json; charset=utf-8';
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.body = await postmanText(postman[1], postman[2], postmanServer.url);
      return;
    }
    const docsName = ctx.path === '/docs' || ctx.path === '/docs/' ? '' : ctx.path.startsWith('/docs/') ? ctx.path.slice('/docs/'.length) : undefined;
    const asset = docsName !== undefined && Object.hasOwn(DOCS_ASSETS, docsName) ? DOCS_ASSETS[docsName] : undefined;
    if (asset) {
      ctx.set(DOCS_SECURITY_HEADERS);
      ctx.set('Cache-Control', asset.vendor ? 'public, max-age=3600' : 'no-cache');
      ctx.type = asset.type;
      ctx.body = await readDocsAsset(asset);
      return;
    }
    return next(); // the 404 envelope of the routers after this one
  };
}
