import { errorKeySchema } from '@bo/shared/errors';
import type { LightMyRequestResponse } from 'fastify';
import type { ApiRoute } from './openapi-routes.js';

/**
 * The web app's own routes: without a built web app (tests point WEB_DIST_DIR nowhere) they answer
 * 503 'not built' as text, which is expected there and nowhere else.
 */
export const isStaticWebRoute = (route: ApiRoute) => route.path === '/' || route.path === '/backoffice' || route.path.startsWith('/backoffice/');

/** Text that must never reach a caller: stack frames, file paths, SQL, driver and framework internals. */
const LEAKS: { name: string; test: (body: string) => boolean }[] = [
  { name: 'node_modules', test: (b) => b.includes('node_modules') },
  { name: 'stack frame', test: (b) => b.includes('    at ') || /\bat [\w.<>]+ \(/.test(b) || /\.(ts|js):\d+:\d+/.test(b) },
  { name: '"stack"', test: (b) => b.includes('"stack"') },
  { name: 'SQL', test: (b) => /\b(SELECT|INSERT INTO|UPDATE|DELETE FROM)\s[\w"*]/.test(b) || b.includes('Failed query') },
  { name: 'relation', test: (b) => /\brelation\b/.test(b) },
  { name: 'driver', test: (b) => /DrizzleQueryError|DatabaseError|PGlite|pg_catalog|SQLSTATE|violates|duplicate key|syntax error at|invalid input syntax|out of range for type|unsupported Unicode escape/i.test(b) },
  { name: 'file path', test: (b) => b.includes('/work/') || b.includes('/apps/server/') },
];

export function leakIn(body: string): string | null {
  return LEAKS.find((l) => l.test(body))?.name ?? null;
}

export interface Sent {
  method: string;
  url: string;
  /** The body as sent (a Buffer for the 20 MB case). */
  body?: string | Buffer | undefined;
  contentType?: string | undefined;
}

const preview = (text: string | Buffer | undefined, max = 300): string => {
  if (text === undefined) return '';
  if (Buffer.isBuffer(text)) return `${text.subarray(0, max).toString()}… (${text.length} bytes)`;
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
};

/** Describes a request and its answer for failure messages. */
export const describeExchange = (sent: Sent, res: LightMyRequestResponse) =>
  `${sent.method} ${preview(sent.url, 200)}${sent.contentType ? ` [${sent.contentType}]` : ''}${sent.body !== undefined ? ` body=${preview(sent.body)}` : ''}\n→ ${res.statusCode} ${preview(res.body)}`;

/**
 * The rules every answer obeys: never a 5xx (but the static routes' 503 'not built'); every 4xx is
 * JSON `{ error: string, message: string }`; no answer of an error carries internals.
 */
export function checkAnswer(route: ApiRoute | null, sent: Sent, res: LightMyRequestResponse): void {
  const fail = (why: string) => {
    throw new Error(`${why}\n${describeExchange(sent, res)}`);
  };
  if (res.statusCode >= 500) {
    if (!(route && isStaticWebRoute(route) && res.statusCode === 503)) fail(`answered ${res.statusCode}`);
    return;
  }
  if (res.statusCode >= 400) {
    if (!String(res.headers['content-type'] ?? '').includes('application/json')) fail('a 4xx that is not JSON');
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      return fail('a 4xx whose body does not parse');
    }
    const { error, message } = (body ?? {}) as { error?: unknown; message?: unknown };
    if (typeof error !== 'string' || typeof message !== 'string') fail('a 4xx without { error: string, message: string }');
    // Every key is one of the shared list the web app compares against (@bo/shared/errors).
    if (!errorKeySchema.safeParse(error).success) fail(`a 4xx whose key '${String(error)}' is not in ERROR_KEYS`);
    const leak = leakIn(res.body);
    if (leak) fail(`a 4xx that shows internals (${leak})`);
  }
}

/** The `fields` of a 400 answer. */
export function fieldsOf(res: LightMyRequestResponse): { path: string; message: string }[] {
  try {
    const body = JSON.parse(res.body) as { fields?: { path: string; message: string }[] };
    return Array.isArray(body.fields) ? body.fields : [];
  } catch {
    return [];
  }
}
