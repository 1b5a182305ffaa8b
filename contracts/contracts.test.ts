import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS, CONTRACTS_DIR, CONTROL_CONTRACT, DASHBOARD_CONTRACT, isObject, loadContract, rootDocumentPath } from './lib/bundle.js';
import { checkContractDocument } from './lib/check.js';
import { renderCoverageTable } from './lib/coverage.js';
import { listOperations } from './lib/operations.js';
import { lintContract } from './lint/ruleset.js';

describe.each(CONTRACT_VERSIONS)('contract %s', (version) => {
  it('validates with swagger-parser as a multi-file root document and as a bundle', async () => {
    await expect(SwaggerParser.validate(rootDocumentPath(version))).resolves.toBeTruthy();
    await expect(SwaggerParser.validate(loadContract(version) as never)).resolves.toBeTruthy();
  });

  it('compiles every schema in ajv strict mode, with an example for every response, each valid', () => {
    expect(checkContractDocument(loadContract(version))).toEqual([]);
  });

  it('passes our Spectral ruleset with no errors or warnings', async () => {
    const results = await lintContract(loadContract(version), `${version}/openapi.json`);
    expect(results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  });

  it('gives every tenant operation the 401, 429 and 500 the spec promises', () => {
    const doc = loadContract(version);
    const missing = listOperations(doc)
      .filter((op) => !(Array.isArray(op.operation.security) && op.operation.security.length === 0))
      .flatMap((op) => ['401', '429', '500'].filter((s) => !isObject(op.operation.responses) || !(s in op.operation.responses)).map((s) => `${op.operationId} ${s}`));
    expect(missing).toEqual([]);
  });
});

// Spec 9.1 and 4.7: which surfaces each version holds.
const paths = (version: string) => Object.keys(loadContract(version).paths);
describe('version surfaces', () => {
  it('v1.3.0 holds the advanced trade path, compliance check and landed cost, and no signup or ship audit', () => {
    const v13 = paths('v1.3.0');
    for (const p of ['/api/trade/classify', '/api/trade/classify/batch', '/api/trade/classify/apply', '/api/trade/classify/reviews', '/api/compliance/check', '/api/trade/landed-cost', '/api/public/billing/setup-session', '/api/ship/claims/submissions']) {
      expect(v13).toContain(p);
    }
    expect(v13.filter((p) => p.startsWith('/api/public/signup') || p === '/api/ship/audit' || p.startsWith('/api/ship/shipments'))).toEqual([]);
  });

  it('v1.2.0 adds feeds, findings, claims and ship audit, with magic link and resend on signup', () => {
    const v12 = paths('v1.2.0');
    for (const p of ['/api/trade/feeds/upload', '/api/ship/findings', '/api/ship/claims/submissions', '/api/ship/audit', '/api/ship/shipments/{shipmentId}', '/api/public/signup/sessions/{sessionId}/verify-magic-link', '/api/public/signup/sessions/{sessionId}/resend-verification']) {
      expect(v12).toContain(p);
    }
    expect(v12.filter((p) => p.startsWith('/api/trade/classify/reviews') || p === '/api/compliance/check')).toEqual([]);
  });

  it('v1.1.0 has signup without magic link and resend, and none of the v1.2.0 additions', () => {
    const v11 = paths('v1.1.0');
    expect(v11).toContain('/api/public/signup/sessions/{sessionId}/provision');
    expect(v11.filter((p) => /magic-link|resend|\/api\/trade\/feeds|\/api\/ship\/(findings|claims|audit|shipments)/.test(p))).toEqual([]);
  });

  it('keeps operationIds stable across versions for the same method and path', () => {
    const seen = new Map<string, string>();
    for (const version of CONTRACT_VERSIONS) {
      for (const op of listOperations(loadContract(version))) {
        const key = `${op.method} ${op.path}`;
        expect(seen.get(key) ?? op.operationId, key).toBe(op.operationId);
        seen.set(key, op.operationId);
      }
    }
  });
});

describe('contracts/COVERAGE.md', () => {
  it('is current (regenerate with npm run contracts:coverage)', () => {
    expect(readFileSync(path.join(CONTRACTS_DIR, 'COVERAGE.md'), 'utf8')).toBe(renderCoverageTable());
  });
});

describe('the sandbox control contract', () => {
  it('validates with swagger-parser and passes the schema and example checks', async () => {
    await expect(SwaggerParser.validate(rootDocumentPath(CONTROL_CONTRACT))).resolves.toBeTruthy();
    expect(checkContractDocument(loadContract(CONTROL_CONTRACT))).toEqual([]);
  });
});

describe('the sandbox dashboard contract', () => {
  it('validates with swagger-parser and passes the schema and example checks', async () => {
    await expect(SwaggerParser.validate(rootDocumentPath(DASHBOARD_CONTRACT))).resolves.toBeTruthy();
    expect(checkContractDocument(loadContract(DASHBOARD_CONTRACT))).toEqual([]);
  });

  it('keeps every route for dashboard principals only (spec 5.5)', () => {
    const doc = loadContract(DASHBOARD_CONTRACT) as { paths: Record<string, Record<string, { 'x-principal-types'?: string[] }>> };
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(ops.length).toBeGreaterThan(0);
    for (const op of ops) expect(op['x-principal-types']).toEqual(['dashboard']);
  });
});
