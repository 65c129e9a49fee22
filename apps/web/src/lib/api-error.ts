/** A failed call, as every caller sees it: HTTP status (0 = no answer), the server's stable key, a text for people. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly key: string,
    message: string,
    readonly fields?: ReadonlyArray<{ path: string; message: string }>,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}
