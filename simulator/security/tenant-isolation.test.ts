// Tenant isolation over HTTP (spec 7: NOT_FOUND is "resource absent or not the tenant's"; issue 15 item 6):
// for EVERY v1.3.0 operation with a path parameter, read from the contract, tenant B naming tenant A's
// resource gets 404 NOT_FOUND (never 200, never 403, which would confirm the id exists), and A's
// resources are as they were. Every response is also checked against the contract by the test client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contracts/lib/bundle.js';
import { buildExampleRequest } from '../../contracts/lib/example-request.js';
import { listOperations, type ContractOperation } from '../../contracts/lib/operations.js';
import { SLOW_JOBS } from '../domains/jobs/jobs.testing.js';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';
import { ownResourcesOfEveryKind, secondTenant, type OwnedIds } from './security.testing.js';

const doc = loadContract('v1.3.0');
const pathParameters = (op: ContractOperation) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
const addressed = listOperations(doc).filter((op) => pathParameters(op).length > 0);

let sandbox: TestSandbox;
let owned: OwnedIds;
let other: { tenantId: string; token: string };
beforeAll(async () => {
  sandbox = await startTestSandbox({ config: SLOW_JOBS });
  owned = await ownResourcesOfEveryKind(sandbox);
  other = await secondTenant(sandbox);
}, 90_000);
afterAll(async () => sandbox?.close());

/** The operation's path with tenant A's ids, and the contract's example body (so validation passes). */
function requestFor(op: ContractOperation, token: string) {
  const example = buildExampleRequest(doc, op, { bearer: token });
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(owned[name]));
  const body = typeof example.body === 'string' ? JSON.parse(example.body) : undefined;
  return { method: op.method.toUpperCase(), path, headers: example.headers, body };
}

/** What tenant A reads of its own resources: every GET of the list, as A. */
async function ownersView(): Promise<Record<string, unknown>> {
  const view: Record<string, unknown> = {};
  for (const op of addressed.filter((o) => o.method === 'get')) {
    const { path } = requestFor(op, '');
    const res = await sandbox.call('GET', path);
    view[path] = { status: res.status, body: res.body };
  }
  view.findings = (await sandbox.call('GET', '/api/ship/findings?limit=500')).body;
  return view;
}

describe("another tenant's ids (spec 7)", () => {
  it('covers every v1.3.0 operation with a path parameter, each parameter naming one of tenant A\'s resources', () => {
    expect(addressed.length).toBeGreaterThanOrEqual(20);
    const unknown = addressed.flatMap((op) => pathParameters(op).filter((name) => !(name in owned)).map((name) => `${op.operationId} {${name}}`));
    expect(unknown, 'a new path parameter needs a resource of that kind in ownResourcesOfEveryKind').toEqual([]);
  });

  it('are readable by their owner, so a 404 for another tenant is about ownership', async () => {
    const view = await ownersView();
    for (const [path, answer] of Object.entries(view)) {
      if (path !== 'findings') expect((answer as { status: number }).status, path).toBe(200);
    }
  });

  it('answer 404 NOT_FOUND to another tenant on every such operation, and change nothing of the owner', async () => {
    const before = await ownersView();
    expect(await sweep()).toEqual(addressed.map((op) => `${op.operationId}: 404 NOT_FOUND`));
    expect(await ownersView()).toEqual(before);
  });

  it('catches a leak: with the leak defects on, the operations they open stop answering 404', async () => {
    const leaks = { 'isolation.tenant-leak': 'getJob', 'trade.session-leaks': 'getTradeFeedSession' };
    try {
      expect((await sandbox.admin('PUT', '/_sim/defects', { active: Object.keys(leaks) })).status).toBe(200);
      const leaking = (await sweep()).filter((answer) => !answer.endsWith(': 404 NOT_FOUND')).map((answer) => answer.split(':')[0]);
      // A leak of a session opens the operations on it too: every named one must be among those seen.
      expect(leaking).toEqual(expect.arrayContaining(Object.values(leaks)));
      expect(leaking.length).toBeLessThan(addressed.length);
    } finally {
      await sandbox.admin('PUT', '/_sim/defects', { active: [] });
    }
  });
});

/** Tenant B calls every addressed operation on tenant A's ids; answers `operationId: status code` each. */
async function sweep(): Promise<string[]> {
  const answers: string[] = [];
  for (const op of addressed) {
    const { method, path, headers, body } = requestFor(op, other.token);
    const res = await sandbox.call(method, path, { token: other.token, headers, unchecked: true, ...(body === undefined ? {} : { body }) });
    answers.push(`${op.operationId}: ${res.status} ${res.body?.code ?? ''}`);
  }
  return answers;
}
