// Shared set-up of the auth tests: kernel deps, a tenant, the auth domain, and the real operations of the
// contract (so the security requirements under test are the published ones, not copies).
import { expect } from 'vitest';
import type { OperationId, ParamsOf, QueryOf, RequestBody } from '../../../contracts/generated/index.js';
import { loadContract } from '../../../contracts/lib/bundle.js';
import { listOperations, type ContractOperation } from '../../../contracts/lib/operations.js';
import type { SimulatorConfig } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import { ApiError } from '../../kernel/errors.js';
import type { HandlerRequest, PrincipalOf } from '../../kernel/http/types.js';
import { createTestDeps } from '../../testing/kernel.js';
import { tenantStore } from '../tenants/index.js';
import { createAuth } from './index.js';

const operationsByVersion = new Map<string, ContractOperation[]>();

/** A contract operation whose operationId is known to the type system (so its handler request is typed). */
export type TypedOperation<Op extends OperationId> = ContractOperation & { operationId: Op };

/** The contract's operation with this operationId. */
export function operation<Op extends OperationId>(operationId: Op, version = 'v1.3.0'): TypedOperation<Op> {
  if (!operationsByVersion.has(version)) operationsByVersion.set(version, listOperations(loadContract(version)));
  const found = operationsByVersion.get(version)!.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in ${version}`);
  return found as TypedOperation<Op>;
}

export async function authFixture(options: { config?: Partial<SimulatorConfig>; file?: string; clock?: Clock } = {}) {
  const deps = await createTestDeps(options);
  const tenants = tenantStore(deps);
  const auth = createAuth(deps, { tenants });
  await auth.start?.();
  const tenant = await tenants.create({ name: 'Northwind Imports' });
  const exchange = async (integrationKey: string): Promise<string> => {
    const op = operation('exchangeIntegrationToken');
    const principal = await auth.authenticate(op, { 'x-api-key': integrationKey });
    const response = await auth.handlers.exchangeIntegrationToken!(request(op, principal!));
    return (response.body as { access_token: string }).access_token;
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  return { deps, tenants, auth, tenant, exchange, bearer };
}

export function request<Op extends OperationId>(op: TypedOperation<Op>, principal: PrincipalOf<Op>, body?: RequestBody<Op>): HandlerRequest<Op> {
  return {
    operation: op,
    contractVersion: 'v1.3.0',
    requestId: 'test',
    principal,
    params: {} as ParamsOf<Op>,
    query: {} as QueryOf<Op>,
    headers: {},
    body: body as RequestBody<Op>,
    files: [],
  };
}

/** Awaits a call that must fail with this ApiError; returns it for further checks. */
export async function expectApiError(call: () => unknown, status: number, code: string): Promise<ApiError> {
  let caught: unknown;
  try {
    await call();
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${status} ${code}`).toBeInstanceOf(ApiError);
  const error = caught as ApiError;
  expect({ status: error.status, code: error.code }).toEqual({ status, code });
  return error;
}
