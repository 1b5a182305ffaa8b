// The one error type of the simulator, raised by code: the HTTP status comes from the spec's table of
// codes (contracts/error-codes.json, spec 7), never from the throw site. Thrown anywhere; turned into the
// spec's envelope in one place (http/error-envelope.ts). Anything else that escapes becomes 500 INTERNAL_ERROR.
import SPEC_CODES from '../../contracts/error-codes.json' with { type: 'json' };

export type ErrorDetails = Record<string, unknown>;

/** Codes the sandbox adds to the spec's table: an operation whose domain is not built yet. */
const SANDBOX_CODES = { NOT_IMPLEMENTED: 501 } as const;

type SpecErrorCode = Exclude<keyof typeof SPEC_CODES, '$comment'>;
export type ErrorCode = SpecErrorCode | keyof typeof SANDBOX_CODES;

const STATUS: Record<ErrorCode, number> = { ...(SPEC_CODES as unknown as Record<SpecErrorCode, number>), ...SANDBOX_CODES };

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    /** Response headers that belong to the error (Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = STATUS[code];
  }

  /** Defect injection only: a code sent with a status the spec does not pair it with. */
  static misfiled(status: number, code: ErrorCode, message: string): ApiError {
    const error = new ApiError(code, message);
    (error as { status: number }).status = status;
    return error;
  }

  toEnvelope(): { code: string; message: string; details?: ErrorDetails } {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
}

export const invalidRequest = (message: string, field?: string, details: ErrorDetails = {}) =>
  new ApiError('INVALID_REQUEST', message, field === undefined && Object.keys(details).length === 0 ? undefined : { ...(field === undefined ? {} : { field }), ...details });

export const notFound = (what = 'resource') => new ApiError('NOT_FOUND', `${what} not found`);

export const actionNotAllowed = (message: string, details?: ErrorDetails) => new ApiError('ACTION_NOT_ALLOWED', message, details);

export const invalidToken = (message = 'bearer token is missing, expired, revoked or invalid') => new ApiError('INVALID_TOKEN', message);

export const internalError = () => new ApiError('INTERNAL_ERROR', 'an unexpected error occurred');
