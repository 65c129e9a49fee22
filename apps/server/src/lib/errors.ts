import type { ErrorKey } from '@bo/shared/errors';

/**
 * Errors with stable keys (contract §6). Services throw them; the error handler turns them into
 * `{ error, message }` with the status. 5xx never leaks internals.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: ErrorKey,
    message: string,
    readonly fields?: { path: string; message: string }[],
    /** Extra response headers, such as Retry-After on a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fields?: { path: string; message: string }[], key: ErrorKey = 'badRequest') =>
  new AppError(400, key, message, fields);
export const unauthorized = (message = 'Authentication required', key: ErrorKey = 'unauthorized') => new AppError(401, key, message);
export const forbidden = (message = 'You are not allowed to do this', key: ErrorKey = 'forbidden') => new AppError(403, key, message);
export const notFound = (message = 'Not found', key: ErrorKey = 'notFound') => new AppError(404, key, message);
export const conflict = (message: string, key: ErrorKey = 'conflict') => new AppError(409, key, message);
export const tooManyResults = (message = 'The search returned too many elements') => new AppError(413, 'tooManyResults', message);
export const ruleBroken = (key: ErrorKey, message: string) => new AppError(422, key, message);
/** 429 with `Retry-After` (seconds), so a client knows when to try again. */
export const tooManyRequests = (message: string, retryAfterSeconds: number, key: ErrorKey = 'tooManyAttempts') =>
  new AppError(429, key, message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/**
 * Does the error come from a unique index (a database error, or one that wraps it as its `cause`)?
 * With `constraint`, only from that one (its name is in the message of both PostgreSQL and PGlite).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === '23505') return constraint === undefined || (typeof message === 'string' && message.includes(constraint));
  }
  return false;
}
