// Forged and dead bearer tokens over HTTP (spec 5.1, 5.2, 7; decision 1; issue 15 item 6): on EVERY v1.3.0
// operation that takes a bearer token (read from the contract's security), an unsigned (`alg: none`) token,
// one signed with another key (with or without that key in its `jwk` header), one of another issuer, one
// whose claims were edited after signing (a longer life, another tenant), and a token of a revoked key are
// all 401 INVALID_TOKEN. The sweep is proven able to fail by the defects that let a forgery through.
import { decodeJwt, exportJWK, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObject, loadContract, type Json } from '../../contracts/lib/bundle.js';
import { buildExampleRequest } from '../../contracts/lib/example-request.js';
import { listOperations, type ContractOperation } from '../../contracts/lib/operations.js';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';
import { secondTenant } from './security.testing.js';

const doc = loadContract('v1.3.0');
const schemes = isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
const isBearer = (name: string) => isObject(schemes[name]) && schemes[name].type === 'http' && schemes[name].scheme === 'bearer';
const requirements = (op: ContractOperation) => ((Array.isArray(op.operation.security) ? op.operation.security : doc.security) ?? []) as Json[];
const bearerOperations = listOperations(doc).filter((op) => requirements(op).some((r) => isObject(r) && Object.keys(r).some(isBearer)));

const attackerKey = new TextEncoder().encode('an attacker key that is not the sandbox signing key!');
const base64url = (text: string) => Buffer.from(text).toString('base64url');

let sandbox: TestSandbox;
let forged: Record<string, string>;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  const genuine = await sandbox.token();
  const claims = decodeJwt(genuine);
  const [header, , signature] = genuine.split('.');
  const victim = await secondTenant(sandbox);

  // A key of the default tenant, its token taken, then the key revoked (spec 5.2: its tokens stop at once).
  const key = await sandbox.admin('POST', `/_sim/tenants/${sandbox.identity.tenantId}/integration-keys`, {});
  const exchanged = await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': key.body.integrationKey } });
  expect(exchanged.status).toBe(200);
  expect((await sandbox.admin('POST', `/_sim/integration-keys/${key.body.integrationKeyId}/revoke`)).status).toBe(200);

  forged = {
    'alg none': new UnsecuredJWT(claims).encode(),
    'another key': await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(attackerKey),
    'another key, named in its jwk header': await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', jwk: await exportJWK(attackerKey) }).sign(attackerKey),
    'another issuer': await new SignJWT({ ...claims, iss: 'https://issuer.invalid' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(attackerKey),
    'claims edited after signing': `${header}.${base64url(JSON.stringify({ ...claims, exp: claims.exp! + 365 * 86_400 }))}.${signature}`,
    'claims edited to another tenant': `${header}.${base64url(JSON.stringify({ ...claims, tenant_id: victim.tenantId }))}.${signature}`,
    'a revoked key': exchanged.body.access_token,
  };
}, 60_000);
afterAll(async () => sandbox?.close());

/** Calls every bearer operation with the token; answers `operationId: status code` for each. */
async function sweep(token: string): Promise<string[]> {
  const answers: string[] = [];
  for (const op of bearerOperations) {
    const example = buildExampleRequest(doc, op, { bearer: token });
    const body = typeof example.body === 'string' ? JSON.parse(example.body) : undefined;
    const res = await sandbox.call(example.method, example.path, { token, headers: example.headers, unchecked: true, ...(body === undefined ? {} : { body }) });
    answers.push(`${op.operationId}: ${res.status} ${res.body?.code ?? ''}`);
  }
  return answers;
}

describe('forged bearer tokens on every bearer operation (spec 5, 7)', () => {
  it('finds the bearer operations in the contract', () => {
    expect(bearerOperations.length).toBeGreaterThanOrEqual(30);
  });

  it('lets the genuine token through authentication (no 401), so the refusals below are about the token', async () => {
    const answers = await sweep(await sandbox.token());
    expect(answers.filter((a) => a.includes(': 401 '))).toEqual([]);
  });

  it.each(['alg none', 'another key', 'another key, named in its jwk header', 'another issuer', 'claims edited after signing', 'claims edited to another tenant', 'a revoked key'])(
    'refuses a token of %s with 401 INVALID_TOKEN everywhere',
    async (name) => {
      expect(await sweep(forged[name])).toEqual(bearerOperations.map((op) => `${op.operationId}: 401 INVALID_TOKEN`));
    },
  );

  it.each([
    ['auth.alg-none-accepted', 'alg none'],
    ['auth.foreign-key-accepted', 'another key, named in its jwk header'],
    ['auth.foreign-issuer-unverified', 'another issuer'],
    ['auth.signature-not-verified', 'claims edited after signing'],
    ['auth.revoked-key-tokens-valid', 'a revoked key'],
  ])('would catch %s: with it on, the token of %s gets through', async (defect, name) => {
    try {
      expect((await sandbox.admin('PUT', '/_sim/defects', { active: [defect] })).status).toBe(200);
      const through = (await sweep(forged[name])).filter((a) => !a.includes(': 401 '));
      expect(through.length).toBeGreaterThan(0);
    } finally {
      await sandbox.admin('PUT', '/_sim/defects', { active: [] });
    }
  });
});
