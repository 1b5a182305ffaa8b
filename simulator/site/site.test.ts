import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTRACT_VERSIONS, CONTROL_CONTRACT, loadContract } from '../../contracts/lib/bundle.js';
import { createSimulator, type Simulator } from '../app.js';
import { createTestDeps } from '../testing/kernel.js';
import { openStore } from '../kernel/store/store.js';
import { createStoreHealth } from './health.js';
import { README_TOPICS, type RootIndex } from './root-page.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
let sim: Simulator;
beforeAll(async () => {
  sim = await createSimulator(await createTestDeps({ config: { contract: 'all' } }));
  await sim.start();
});
afterAll(() => sim.stop());

const get = (url: string, accept?: string) => {
  const req = request(sim.app.callback()).get(url);
  return accept ? req.set('Accept', accept) : req;
};

describe('GET / (the root page)', () => {
  it('answers JSON to a client that asks for it, naming the API base of each served version, the docs, console, health and every contract', async () => {
    const res = await get('/', 'application/json');
    expect(res.status).toBe(200);
    const index = res.body as RootIndex;
    expect(index.api.map((a) => a.version)).toEqual(sim.versions.map((v) => v.version));
    expect(index.api[0].baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(index.api[1].baseUrl).toBe(`${index.api[0].baseUrl}/versions/v1.3.0`);
    expect([index.docs, index.console, index.health]).toEqual(['/docs', '/_sim/console', '/healthz']);
    expect(index.contracts.map((c) => c.name)).toEqual([...CONTRACT_VERSIONS, CONTROL_CONTRACT]);
    expect(index.control.contract).toBe('/contracts/sandbox-control/openapi.json');
  });

  it('answers HTML to a browser, with a link to every place the JSON names', async () => {
    const res = await get('/', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const index = (await get('/', 'application/json')).body as RootIndex;
    const hrefs = [...res.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&#38;/g, '&'));
    for (const place of [index.docs, index.console, index.health, index.control.contract, ...index.contracts.flatMap((c) => [c.json, c.yaml, c.docs])]) {
      expect(hrefs).toContain(place);
    }
    // Only this server's own routes: nothing loads from elsewhere.
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('links only to routes that answer: every page, contract and the health check is 200 without a token', async () => {
    const index = (await get('/', 'application/json')).body as RootIndex;
    for (const place of [index.docs, index.health, ...index.contracts.flatMap((c) => [c.json, c.yaml, c.docs])]) {
      expect((await get(place)).status, place).toBe(200);
    }
  });

  it('names README sections that exist', () => {
    for (const { file, section } of README_TOPICS) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      if (section) expect(text, `${file} "${section}"`).toMatch(new RegExp(`^#+ ${section.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm'));
    }
  });
});

describe('GET /contracts/<name>/openapi.{json,yaml}', () => {
  it('serves each version and the control contract as the bundled document, in JSON and in YAML, this sandbox first among its servers', async () => {
    const index = (await get('/', 'application/json')).body as RootIndex;
    for (const name of [...CONTRACT_VERSIONS, CONTROL_CONTRACT]) {
      const { servers: bundledServers, ...bundled } = loadContract(name);
      // supertest listens on a new port per request: the address is this host and the version's base path.
      const basePath = name === CONTROL_CONTRACT ? '' : new URL(index.api.find((a) => a.version === name)!.baseUrl).pathname.replace(/\/$/, '');
      const json = await get(`/contracts/${name}/openapi.json`);
      expect(json.status).toBe(200);
      expect(json.headers['content-type']).toContain('application/json');
      const yaml = await get(`/contracts/${name}/openapi.yaml`);
      expect(yaml.status).toBe(200);
      expect(yaml.headers['content-type']).toContain('application/yaml');
      for (const served of [JSON.parse(json.text), parse(yaml.text)]) {
        const { servers, ...rest } = served;
        expect(rest, name).toEqual(bundled);
        expect(servers[0], name).toEqual({ url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${basePath}$`)), description: expect.stringMatching(/^This sandbox/) });
        expect(servers.slice(1), name).toEqual(bundledServers);
      }
    }
  });

  it('serves the decisions the contracts point to at /contracts/README.md', async () => {
    const res = await get('/contracts/README.md');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/markdown');
    expect(res.text).toBe(readFileSync(path.join(ROOT, 'contracts', 'README.md'), 'utf8'));
    expect(JSON.stringify(loadContract('v1.3.0').info)).toContain('(/contracts/README.md)');
  });

  it("serves v1.3.0's Postman collection and environment as committed, with baseUrl set to this sandbox's address for v1.3.0", async () => {
    for (const file of ['postman.json', 'postman.environment.json']) {
      const res = await get(`/contracts/v1.3.0/${file}`).set('Host', 'sandbox.test:4010');
      expect(res.status, file).toBe(200);
      const committed = JSON.parse(readFileSync(path.join(ROOT, 'contracts', 'v1.3.0', file), 'utf8'));
      const variables = (doc: { variable?: Array<{ key: string; value: unknown }>; values?: Array<{ key: string; value: unknown }> }) => doc.variable ?? doc.values ?? [];
      expect(variables(res.body).find((v) => v.key === 'baseUrl')?.value, file).toBe('http://sandbox.test:4010');
      // Nothing else differs from the committed file.
      expect(variables(res.body).filter((v) => v.key !== 'baseUrl')).toEqual(variables(committed).filter((v) => v.key !== 'baseUrl'));
      expect({ ...res.body, variable: undefined, values: undefined }).toEqual({ ...committed, variable: undefined, values: undefined });
    }
    expect((await get('/contracts/v1.2.0/postman.json')).status).toBe(404); // made for the current contract only
  });

  it('answers 404 in the error envelope for a contract it does not have', async () => {
    for (const url of ['/contracts/v9.9.9/openapi.json', '/contracts/v1.3.0/openapi.xml', '/contracts/sandbox-dashboard/openapi.json', '/contracts/../package.json']) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
  });
});

describe('GET /docs', () => {
  it('serves a page that loads only its own assets, Swagger UI among them, each answering 200', async () => {
    const page = await get('/docs');
    expect(page.status).toBe(200);
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css']));
    for (const ref of refs.filter((r) => !r.startsWith('data:'))) {
      expect(ref, ref).toMatch(/^\/(?!\/)/); // this server's own route, never another host
      expect((await get(ref)).status, ref).toBe(200);
    }
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).not.toMatch(/https?:/);
  });

  it('serves nothing else under /docs/', async () => {
    expect((await get('/docs/../package.json')).status).toBe(404);
    expect((await get('/docs/swagger-ui-bundle.js.map')).status).toBe(404);
    expect((await get('/docs/redoc.standalone.js')).status).toBe(404); // Redoc gave way to Swagger UI (issue 29)
  });
});

describe('GET /healthz', () => {
  it('answers 200 with the served contract versions, the kind of store and the uptime, without a token', async () => {
    const res = await get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', contractVersions: ['v1.3.0', 'v1.2.0', 'v1.1.0'], store: 'memory', uptimeSeconds: expect.any(Number) });
  });

  it('answers 503 naming the failure once the store failed to write, and keeps answering it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'healthz-'));
    const health = createStoreHealth();
    // A real failure: the store's directory vanishes, so rotating the journal for a snapshot cannot rename it.
    const store = await openStore({ file: path.join(dir, 'store.json'), compactAfterBytes: 1, onError: health.record });
    const deps = await createTestDeps();
    const failing = await createSimulator({ ...deps, store, config: { ...deps.config, dbPath: path.join(dir, 'store.json') } }, { storeHealth: health });
    await failing.start();
    try {
      expect((await request(failing.app.callback()).get('/healthz')).status).toBe(200);
      // compactAfterBytes: 1 starts a snapshot after every write, written outside the journal's queue: wait
      // for it (compact() joins the one in flight), and retry the removal should a background write land in
      // the directory meanwhile (CI saw ENOTEMPTY from that race).
      await store.compact();
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
      await store.collection('probe').put({ id: 'p1', rev: 0 });
      // The write itself may be refused too (the journal is closed by the failed rotation): either way the
      // store reports the failure to its onError, which is what /healthz reads.
      await store.flush().catch(() => undefined);
      for (const deadline = Date.now() + 5000; !health.failure() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      for (let i = 0; i < 2; i++) {
        const res = await request(failing.app.callback()).get('/healthz');
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ status: 'failing', store: 'file', storeFailure: { at: expect.any(String), message: expect.stringContaining('ENOENT') } });
      }
    } finally {
      await failing.stop().catch(() => undefined);
    }
  });
});
