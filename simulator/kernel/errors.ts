// The one error type of the simulator. Thrown anywhere; turned into the spec's envelope in one place
// (http/error-envelope.ts). Anything else that escapes becomes 500 INTERNAL_ERROR.
export type ErrorDetails = Record<string, unknown>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetails,
    /** Response headers that belong to the error (Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toEnvelope(): { code: string; message: string; details?: ErrorDetails } {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
}

export const invalidRequest = (message: string, field?: string, details: ErrorDetails = {}) =>
  new ApiError(400, 'INVALID_REQUEST', message, field === undefined && Object.keys(details).length === 0 ? undefined : { ...(field === undefined ? {} : { field }), ...details });

export const notFound = (what = 'resource') => new ApiError(404, 'NOT_FOUND', `${what} not found`);

export const actionNotAllowed = (message: string, details?: ErrorDetails) => new ApiError(409, 'ACTION_NOT_ALLOWED', message, details);

export const invalidToken = (message = 'bearer token is missing, expired, revoked or invalid') => new ApiError(401, 'INVALID_TOKEN', message);

export const internalError = () => new ApiError(500, 'INTERNAL_ERROR', 'an unexpected error occurred');
