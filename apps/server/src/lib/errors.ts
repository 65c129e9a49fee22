/**
 * Errors with stable keys (contract §6). Services throw them; the error handler turns them into
 * `{ error, message }` with the status. 5xx never leaks internals.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: string,
    message: string,
    readonly fields?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fields?: { path: string; message: string }[], key = 'badRequest') =>
  new AppError(400, key, message, fields);
export const unauthorized = (message = 'Authentication required', key = 'unauthorized') => new AppError(401, key, message);
export const forbidden = (message = 'You are not allowed to do this', key = 'forbidden') => new AppError(403, key, message);
export const notFound = (message = 'Not found', key = 'notFound') => new AppError(404, key, message);
export const conflict = (message: string, key = 'conflict') => new AppError(409, key, message);
export const tooManyResults = (message = 'The search returned too many elements') => new AppError(413, 'tooManyResults', message);
export const ruleBroken = (key: string, message: string) => new AppError(422, key, message);
export const tooManyRequests = (message: string, key = 'tooManyAttempts') => new AppError(429, key, message);
