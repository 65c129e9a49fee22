import { errorKeySchema, errorResponseSchema, type ErrorKey } from '@bo/shared/errors';
import type { z } from 'zod';
import { showAlert } from '../components/ui/alert-store';
import { ApiError } from './api-error';
import { takeEarlyCall } from './early-calls';
import { getSession, logout } from './session';

/**
 * The one place that talks to the server (house style §5):
 * - paths are relative to the backend-for-frontend prefix `/api` (or the data prefix `/data`);
 * - the session token goes in `Authorization: Bearer`;
 * - error answers `{ error, message }` become an ApiError(status, key, message);
 * - 401 ends the session (the route guard then shows /login);
 * - 413 is only thrown: the screens that search show their own "too many elements" text;
 * - no answer (network) and a server failure (5xx without a key of its own) never show the server's or the
 *   browser's raw text: they say that nothing was saved (for a write) and to try again (FAILURE_TEXTS);
 * - any other failure also goes to the global alert bar, unless the caller says it handles it;
 * - answers are checked against the shared zod schema when one is given.
 */

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-serialised unless it is FormData (uploads). */
  body?: unknown;
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  /** Validates (and types) the answer. */
  schema?: z.ZodType<T>;
  prefix?: '/api' | '/data';
  /** The token to send; defaults to the session's. `null` sends none. */
  token?: string | null;
  /** false: the caller shows the error itself, the alert bar stays quiet. */
  alertOnError?: boolean;
  /** 'response': the Response itself once it is known to be ok (file downloads that read headers). */
  responseType?: 'json' | 'blob' | 'text' | 'response';
  signal?: AbortSignal;
}

/**
 * What a call that got no usable answer says (docs/web-app.md "Error texts"). A write (any method but
 * GET) says that nothing was saved: the server stores all or nothing (contract §6), so a 5xx left nothing
 * behind; a read only says what happened. Both say to try again.
 */
export const FAILURE_TEXTS = {
  networkWrite: 'Nothing was saved: the server could not be reached. Check your connection and try again.',
  networkRead: 'The server could not be reached. Check your connection and try again.',
  serverWrite: 'Nothing was saved: the server had a problem. Try again.',
  serverRead: 'The server had a problem. Try again.',
} as const;

/**
 * 5xx keys whose message the server writes for people (an export that failed, a server shutting down);
 * any other 5xx (internalError, a proxy's page) gets the generic text.
 */
const SPOKEN_SERVER_KEYS: ReadonlySet<ErrorKey> = new Set<ErrorKey>(['exportFailed', 'serviceUnavailable']);

const INVALID_RESPONSE = 'The server sent an unexpected answer.';

export function buildUrl(prefix: string, path: string, query?: RequestOptions<unknown>['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (v !== undefined && v !== null) params.append(key, String(v));
  }
  const search = params.toString();
  return `${prefix}${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
}

async function toApiError(response: Response, write: boolean): Promise<ApiError> {
  const serverFailure = write ? FAILURE_TEXTS.serverWrite : FAILURE_TEXTS.serverRead;
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: fall through to the generic text
  }
  const parsed = errorResponseSchema.safeParse(body);
  if (parsed.success) {
    // A key outside the shared list (the server guarantees none; its tests check) is a plain HTTP error.
    const key = errorKeySchema.safeParse(parsed.data.error);
    const message = response.status >= 500 && !(key.success && SPOKEN_SERVER_KEYS.has(key.data)) ? serverFailure : parsed.data.message;
    return new ApiError(response.status, key.success ? key.data : 'httpError', message, parsed.data.fields);
  }
  return new ApiError(response.status, 'httpError', response.status >= 500 ? serverFailure : `Request rejected with status ${response.status}`);
}

async function readBody(response: Response, type: RequestOptions<unknown>['responseType']): Promise<unknown> {
  if (type === 'response') return response;
  if (type === 'blob') return response.blob();
  if (type === 'text') return response.text();
  if (response.status === 204) return undefined;
  const text = await response.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const { method = 'GET', body, query, schema, prefix = '/api', alertOnError = true, responseType = 'json', signal } = options;
  const token = options.token === undefined ? getSession().token : options.token;

  const headers: Record<string, string> = { Accept: responseType === 'json' ? 'application/json' : '*/*' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  const fail = (error: ApiError): never => {
    if (error.status === 401) {
      // Only the session that sent the token ends: a late answer to an older session's call
      // (or a failed login, which sends none) must not log out the current one.
      if (token && token === getSession().token) logout('unauthorized');
    } else if (error.status !== 413 && alertOnError) {
      showAlert(error.message);
    }
    throw error;
  };

  const url = buildUrl(prefix, path, query);
  let response: Response;
  let earlyData: Promise<unknown> | null = null;
  try {
    // The same call started before the app loaded (public/early-calls.js), or null: send it.
    const taken = signal || responseType !== 'json' || (payload !== undefined && typeof payload !== 'string') ? null : takeEarlyCall(method, url, payload ?? null, token);
    const early = taken ? await taken : null;
    earlyData = early?.data ?? null;
    response = early?.response ?? (await fetch(url, { method, headers, body: payload, signal }));
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    return fail(new ApiError(0, 'network', method === 'GET' ? FAILURE_TEXTS.networkRead : FAILURE_TEXTS.networkWrite));
  }

  if (!response.ok) return fail(await toApiError(response, method !== 'GET'));

  let data: unknown;
  try {
    data = earlyData ? await earlyData : await readBody(response, responseType);
  } catch {
    return fail(new ApiError(response.status, 'invalidResponse', INVALID_RESPONSE));
  }
  if (!schema) return data as T;
  const result = schema.safeParse(data);
  if (!result.success) {
    console.error(`Unexpected answer from ${method} ${path}`, result.error.issues);
    return fail(new ApiError(response.status, 'invalidResponse', INVALID_RESPONSE));
  }
  return result.data;
}

type Options<T> = Omit<RequestOptions<T>, 'method' | 'body'>;

export const api = {
  get: <T = unknown>(path: string, options?: Options<T>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options?: Options<T>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options?: Options<T>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: Options<T>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, body?: unknown, options?: Options<T>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE', body }),
};
