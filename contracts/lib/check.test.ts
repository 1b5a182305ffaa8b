import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { loadContract, type JsonObject } from './bundle.js';
import { checkContractDocument } from './check.js';

// Each check is shown to fail on a copy of the real contract broken on purpose.
const schemas = (doc: JsonObject) => (doc.components as JsonObject).schemas as JsonObject;
const jobsOk = (doc: JsonObject) =>
  ((((doc.paths as JsonObject)['/api/jobs'] as JsonObject).get as JsonObject).responses as JsonObject)['200'] as JsonObject;

describe('contract checks', () => {
  it('pass on the untouched contract copy', () => {
    expect(checkContractDocument(loadContract('v1.3.0'))).toEqual([]);
  });

  it('report an example that does not match its schema', () => {
    const doc = loadContract('v1.3.0');
    ((jobsOk(doc).content as JsonObject)['application/json'] as JsonObject).example = { jobs: 'not an array', count: 1 };
    const problems = checkContractDocument(doc);
    expect(problems.map((p) => p.where).join('\n')).toContain('listJobs (GET /api/jobs) response 200 application/json example');
  });

  it('report a component schema example that breaks its own schema', () => {
    const doc = loadContract('v1.3.0');
    (schemas(doc).TokenResponse as JsonObject).example = { access_token: 'x', token_type: 'Basic', expires_in: 3600 };
    expect(checkContractDocument(doc).map((p) => p.where)).toContain('components.schemas.TokenResponse.example');
  });

  it('report a response without any example', () => {
    const doc = loadContract('v1.3.0');
    const media = (jobsOk(doc).content as JsonObject)['application/json'] as JsonObject;
    delete media.example;
    media.schema = { type: 'object', properties: { jobs: { type: 'array' } } };
    expect(checkContractDocument(doc).map((p) => p.message)).toContain('response has no example');
  });

  it('report a schema that ajv strict mode refuses', () => {
    const doc = loadContract('v1.3.0');
    (schemas(doc).Job as JsonObject).maxPropertis = 3; // a misspelt keyword would otherwise constrain nothing
    expect(checkContractDocument(doc).some((p) => p.where === 'components.schemas.Job' && /strict mode/.test(p.message))).toBe(true);
  });

  it('report the OpenAPI 3.0 nullable keyword', () => {
    const doc = loadContract('v1.3.0');
    ((schemas(doc).Job as JsonObject).properties as JsonObject).error = { type: 'string', nullable: true };
    expect(checkContractDocument(doc)).toContainEqual({ where: 'components.schemas.Job.properties.error', message: expect.stringContaining('nullable') });
  });

  it('report an unknown format', () => {
    const doc = loadContract('v1.3.0');
    ((schemas(doc).Job as JsonObject).properties as JsonObject).createdAt = { type: 'string', format: 'date-tiem' };
    expect(checkContractDocument(doc).some((p) => /unknown format/.test(p.message))).toBe(true);
  });

  it('leave swagger-parser to reject a structurally invalid document', async () => {
    const doc = loadContract('v1.3.0');
    (((doc.paths as JsonObject)['/api/jobs'] as JsonObject).get as JsonObject).parameters = [{ name: 'limit', in: 'querystring' }];
    await expect(SwaggerParser.validate(doc as never)).rejects.toThrow();
  });
});
