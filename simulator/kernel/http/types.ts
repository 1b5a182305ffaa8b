// What a handler sees and returns. Handlers are plain async functions of parsed, validated input, so the
// middleware around them (idempotency, durability, the envelope) can treat every operation alike.
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

export interface HandlerRequest {
  operation: ContractOperation;
  contractVersion: string;
  requestId: string;
  principal: Principal | null;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Every request header, lower-cased; declared header parameters validated. */
  headers: Record<string, string | undefined>;
  body: unknown;
  files: UploadedFile[];
}

export interface HandlerResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Content type when the body is not JSON (CSV export). */
  contentType?: string;
}

export type Handler = (request: HandlerRequest) => Promise<HandlerResponse> | HandlerResponse;

/** operationId -> handler. */
export type HandlerTable = Record<string, Handler>;
