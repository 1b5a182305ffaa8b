// The shared test client: every request goes through supertest against a simulator, and every response is
// checked against the contract of the version it addressed (status documented, content type, headers,
// body schema). A test that sees an undocumented response fails, whatever it asserted itself.
import request from 'supertest';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import { CONTROL_CONTRACT, DASHBOARD_CONTRACT, loadContract, type OpenApiDocument } from '../../contracts/lib/bundle.js';
import { matchOperation } from '../../contracts/lib/operations.js';
import { responseProblems } from '../../contracts/lib/response-check.js';
import { createContractSchemas, type ContractSchemas } from '../../contracts/lib/schemas.js';
import { createSimulator, type Simulator } from '../app.js';
import type { SimulatorConfig } from '../config.js';
import type { SandboxIdentity } from '../control/bootstrap.js';
import type { KernelDeps } from '../kernel/deps.js';
import { createTestDeps } from './kernel.js';

export interface CheckedResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
}

const contracts = new Map<string, { doc: OpenApiDocument; schemas: ContractSchemas }>();
function contract(version: string) {
  if (!contracts.has(version)) {
    const doc = loadContract(version);
    contracts.set(version, { doc, schemas: createContractSchemas(doc) });
  }
  return contracts.get(version)!;
}

/** Which contract a request path belongs to: the control API, a prefixed version, or the default. */
function contractFor(sim: Simulator, path: string): { version: string; path: string } {
  if (path.startsWith('/_sim/')) return { version: CONTROL_CONTRACT, path };
  // The dashboard-only routes (contracts/sandbox-dashboard.openapi.yaml) live under /api/ beside the public ones.
  if (matchOperation(contract(DASHBOARD_CONTRACT).doc, 'POST', path)) return { version: DASHBOARD_CONTRACT, path };
  const prefixed = sim.versions.find((v) => v.prefix && path.startsWith(v.prefix + '/'));
  if (prefixed) return { version: prefixed.version, path: path.slice(prefixed.prefix.length) };
  return { version: sim.versions[0].version, path };
}

export function assertDocumented(sim: Simulator, method: string, path: string, response: CheckedResponse): void {
  const target = contractFor(sim, path);
  const { doc, schemas } = contract(target.version);
  const op = matchOperation(doc, method, target.path);
  if (!op) {
    // Unknown routes must still answer the envelope.
    const problems = response.status === 404 && response.body?.code === 'NOT_FOUND' ? [] : [`${method} ${path} is not an operation of ${target.version}`];
    if (problems.length) throw new Error(problems.join('\n'));
    return;
  }
  const problems = responseProblems(doc, schemas, op, { status: response.status, headers: response.headers, body: response.body });
  if (problems.length) {
    throw new Error(`${method} ${path} -> ${response.status} breaks the ${target.version} contract:\n  ${problems.join('\n  ')}\nbody: ${response.text.slice(0, 1000)}`);
  }
}

export interface TestSandbox {
  sim: Simulator;
  server: Server;
  identity: SandboxIdentity;
  /**
   * Sends a request; the response is checked against the contract before it is returned. `unchecked: true`
   * skips that check, for tests of defect injection that break the contract on purpose.
   */
  call(
    method: string,
    path: string,
    options?: { token?: string | null; headers?: Record<string, string>; body?: unknown; form?: (req: request.Test) => request.Test; unchecked?: boolean },
  ): Promise<CheckedResponse>;
  /** A bearer token for the default key (exchanged once, cached). */
  token(): Promise<string>;
  admin(method: string, path: string, body?: unknown): Promise<CheckedResponse>;
  close(): Promise<void>;
}

export async function startTestSandbox(
  options: { config?: Partial<SimulatorConfig>; seed?: number; file?: string; /** Adjusts the kernel deps before the simulator is built (e.g. a slower store). */ adjustDeps?: (deps: KernelDeps) => KernelDeps } = {},
): Promise<TestSandbox> {
  const created = await createTestDeps({ config: { integrationKey: 'tfk_test_default_key', ...options.config }, seed: options.seed, file: options.file });
  const deps = options.adjustDeps ? options.adjustDeps(created) : created;
  const sim = await createSimulator(deps);
  const identity = await sim.start();
  const server = createServer(sim.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let cachedToken: string | undefined;

  const call: TestSandbox['call'] = async (method, path, opts = {}) => {
    let req = request(server)[method.toLowerCase() as 'get'](path);
    const token = opts.token === undefined ? (path.startsWith('/_sim/') ? identity.adminToken : await sandbox.token()) : opts.token;
    if (token) req = req.set('Authorization', `Bearer ${token}`);
    for (const [k, v] of Object.entries(opts.headers ?? {})) req = req.set(k, v);
    if (opts.form) req = opts.form(req);
    else if (opts.body !== undefined) req = req.send(opts.body as object);
    const res = await req;
    const checked: CheckedResponse = { status: res.status, headers: res.headers as Record<string, string>, body: res.body, text: res.text };
    if (!String(res.headers['content-type'] ?? '').includes('json')) checked.body = res.text;
    if (!opts.unchecked) assertDocumented(sim, method.toUpperCase(), path, checked);
    return checked;
  };
  const sandbox: TestSandbox = {
    sim,
    server,
    identity,
    call,
    async token() {
      if (!cachedToken) {
        const res = await call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': identity.integrationKey! } });
        if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${res.text}`);
        cachedToken = res.body.access_token;
      }
      return cachedToken!;
    },
    admin: (method, path, body) => call(method, path, { token: identity.adminToken, body }),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sim.stop();
    },
  };
  return sandbox;
}
