import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../contracts/lib/bundle.js';
import { listOperations } from '../../../contracts/lib/operations.js';
import { securityRequirements } from '../../domains/auth/authenticate.js';
import { PUBLIC_OPERATIONS, type HandlerTable } from './types.js';

const VERSIONS = ['v1.3.0', 'v1.2.0', 'v1.1.0'];

describe('the typed handler table', () => {
  it('lists as public exactly the operations the contracts serve without authentication', () => {
    const open = new Set<string>();
    for (const version of VERSIONS) {
      for (const op of listOperations(loadContract(version))) {
        const requirements = securityRequirements(op);
        if (requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) open.add(op.operationId);
      }
    }
    expect([...open].sort()).toEqual([...PUBLIC_OPERATIONS].sort());
  });

  it('refuses an operationId the contracts do not have, at compile time', () => {
    const table: HandlerTable = {
      // @ts-expect-error a typo is not an operationId: `tsc --noEmit` (npm test) fails if this compiles
      listJob: () => ({ status: 200 }),
    };
    expect(Object.keys(table)).toEqual(['listJob']);
  });

  it('hands an authenticated handler a principal and its typed query, and a public one none', () => {
    const table: HandlerTable = {
      listJobs: ({ principal, query }) => ({ status: 200, body: { tenantId: principal.tenantId, limit: query.limit } }),
      // @ts-expect-error signup needs no authentication (spec 5.6): its handler gets no principal to read
      getSignupSession: ({ principal }) => ({ status: 200, body: principal.tenantId }),
    };
    expect(Object.keys(table)).toHaveLength(2);
  });
});
