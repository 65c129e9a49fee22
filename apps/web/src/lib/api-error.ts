import type { ErrorKey } from '@bo/shared/errors';

/**
 * The key of a failed call: one of the server's stable keys (@bo/shared/errors, so a comparison with a
 * misspelt key does not compile), or one the client gives itself: no answer, an answer that is not an
 * error body, an answer that does not match its schema.
 */
type ApiErrorKey = ErrorKey | 'httpError' | 'network' | 'invalidResponse';

/** A failed call, as every caller sees it: HTTP status (0 = no answer), the server's stable key, a text for people. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly key: ApiErrorKey,
    message: string,
    readonly fields?: ReadonlyArray<{ path: string; message: string }>,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}
