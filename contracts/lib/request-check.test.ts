import { describe, expect, it } from 'vitest';
import { loadContract } from './bundle.js';
import { listOperations } from './operations.js';
import { pathParameters, requestProblems, type ObservedRequest } from './request-check.js';
import { createContractSchemas } from './schemas.js';

const doc = loadContract('v1.3.0');
const contract = { doc, schemas: createContractSchemas(doc) };
const op = (id: string) => listOperations(doc).find((o) => o.operationId === id)!;
const request = (url: string, headers: ObservedRequest['headers'] = {}, body = ''): ObservedRequest => ({ method: 'GET', url, headers, body: Buffer.from(body) });
const problems = (id: string, req: ObservedRequest, specOnly = false) => requestProblems(contract.doc, contract.schemas, op(id), req, { specOnly });
const BEARER = { authorization: 'Bearer eyJ.token.here' };

describe('requestProblems (the request side of the validating proxy)', () => {
  it('reads path parameters from the template, decoded', () => {
    expect(pathParameters('/api/jobs/{id}', '/api/jobs/0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c')).toEqual({ id: '0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c' });
    expect(pathParameters('/api/sima/results/{sku}/evidence', '/api/sima/results/A%2FB/evidence')).toEqual({ sku: 'A/B' });
    expect(pathParameters('/api/jobs/{id}', '/api/other')).toEqual({});
  });

  it('finds nothing wrong in a request that conforms', () => {
    expect(problems('getJob', request('/api/jobs/0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c', BEARER))).toEqual([]);
    expect(problems('listJobs', request('/api/jobs?limit=5', BEARER))).toEqual([]);
  });

  it('names a path or query value its schema refuses, read as the schema type', () => {
    expect(problems('getJob', request('/api/jobs/not-a-uuid', BEARER))).toEqual([expect.stringMatching(/^path parameter id: /)]);
    expect(problems('listJobs', request('/api/jobs?limit=abc', BEARER))).toEqual(['query parameter limit: (root) must be integer']);
  });

  it('asks for a credential of one of the security requirements: any one requirement, all of its schemes', () => {
    expect(problems('listJobs', request('/api/jobs'))).toEqual(["no credential of the operation's security requirements (integrationBearer)"]);
    // calculateLandedCost: a bearer, or the legacy pair x-api-key + x-org-id (both, not one of them)
    const landed = (headers: ObservedRequest['headers']) => problems('calculateLandedCost', { ...request('/api/landed-cost', headers), method: 'POST' }).filter((p) => p.startsWith('no credential'));
    expect(landed({ 'x-api-key': 'k', 'x-org-id': 'o' })).toEqual([]);
    expect(landed({ 'x-api-key': 'k' })).toEqual(["no credential of the operation's security requirements (integrationBearer or legacyApiKey + legacyOrgId)"]);
    expect(landed(BEARER)).toEqual([]);
  });

  it('holds a JSON body to its schema and its content type to the documented ones', () => {
    const post = (body: string, contentType = 'application/json') => problems('enqueueSimaBatch', { ...request('/api/sima/batch', { ...BEARER, 'content-type': contentType }, body), method: 'POST' });
    expect(post('{"skus":null}')).toEqual([]);
    expect(post('{"skus":null')).toEqual([expect.stringMatching(/^the body is not JSON: /)]);
    expect(post('{"skus":5}')).toEqual([expect.stringMatching(/^body does not match the request schema: \/skus /)]);
    expect(post('skus=', 'text/plain')).toEqual([expect.stringMatching(/^content type text\/plain is not documented for the request/)]);
  });
});
