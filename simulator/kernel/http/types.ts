// What a handler sees and returns. Handlers are plain async functions of parsed, validated input, so the
// middleware around them (idempotency, durability, the envelope) can treat every operation alike. The
// handler table is keyed by the contract's operationIds as a type: a mistyped id does not compile, and a
// handler receives its operation's body, query and path parameters typed from the contract
// (contracts/generated), validated once, by the contract, before it runs.
import type { AnyOperationId, ControlOperationId, DashboardOperationId, OperationId, ParamsOf, QueryOf, RequestBody } from '../../../contracts/generated/index.js';
import type { ContractOperation } from '../../../contracts/lib/operations.js';

export interface Principal {
  /** The legacy x-api-key + x-org-id pair authenticates an integration principal. */
  type: 'integration' | 'dashboard';
  tenantId: string;
  keyId: string | null;
  scopes: string[];
  allowedAdapters: string[] | null;
  defaultAdapter: string | null;
}

/**
 * Operations of the public contract that need no authentication (spec 5.6: signup). Every other public
 * operation reaches its handler with a principal; kernel/http/types.test.ts keeps this list equal to the
 * contract's `security: []` operations.
 */
export const PUBLIC_OPERATIONS = [
  'createSignupSession',
  'getSignupSession',
  'verifySignupEmail',
  'verifySignupMagicLink',
  'resendSignupVerification',
  'provisionSignupSession',
] as const satisfies readonly OperationId[];
type PublicOperationId = (typeof PUBLIC_OPERATIONS)[number];

export interface UploadedFile {
  field: string;
  /** The client's file name. */
  originalName: string;
  /** Where the streamed upload sits on disk. */
  path: string;
  size: number;
  mimeType: string | null;
  /** sha256 of the content, hex. */
  sha256: string;
}

/** Who calls: authenticated operations always have a principal; public ones and the control API none. */
export type PrincipalOf<Op extends AnyOperationId> = Op extends PublicOperationId | ControlOperationId ? null : Principal;

export interface HandlerRequest<Op extends AnyOperationId = AnyOperationId> {
  operation: ContractOperation;
  contractVersion: string;
  requestId: string;
  principal: PrincipalOf<Op>;
  params: ParamsOf<Op>;
  query: QueryOf<Op>;
  /** Every request header, lower-cased; declared header parameters validated. */
  headers: Record<string, string | undefined>;
  body: RequestBody<Op>;
  files: UploadedFile[];
}

export interface HandlerResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Content type when the body is not JSON (CSV export). */
  contentType?: string;
}

export type Handler<Op extends AnyOperationId = AnyOperationId> = (request: HandlerRequest<Op>) => Promise<HandlerResponse> | HandlerResponse;

/** operationId -> handler for the public contract; an operation without one answers 501 and is listed. */
export type HandlerTable = { [Op in OperationId]?: Handler<Op> };

/** operationId -> handler for the sandbox control API. */
export type ControlHandlerTable = { [Op in ControlOperationId]?: Handler<Op> };

/** operationId -> handler for the dashboard-only routes (a dashboard principal always). */
export type DashboardHandlerTable = { [Op in DashboardOperationId]?: Handler<Op> };
