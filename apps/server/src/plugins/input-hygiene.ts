import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../lib/errors.js';

/** Deeper than any payload of this API (the deepest is about 5 levels); past it a body is refused. */
export const MAX_INPUT_DEPTH = 64;

const NUL = '\u0000';
const NUL_MESSAGE = 'The NUL character (\\u0000) is not allowed';
const NUL_KEY_MESSAGE = 'The NUL character (\\u0000) is not allowed in a field name';
const DEPTH_MESSAGE = `Nested more than ${MAX_INPUT_DEPTH} levels deep`;

type Problem = { path: string; message: string };

/** How a field is named in error answers: the same dotted path the schema errors use ('body.lines.0.upc'). */
const join = (path: string, key: string | number) => `${path}.${String(key).replaceAll(NUL, '\\u0000')}`;

/**
 * The first problem of one input (body, query or path parameters): a NUL character in a string or in
 * a key, or nesting past MAX_INPUT_DEPTH. Iterative, so a 10,000-level body cannot overflow the stack.
 */
function findInputProblem(root: unknown, rootPath: string): Problem | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: rootPath, depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return { path, message: NUL_MESSAGE };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return { path, message: DEPTH_MESSAGE };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: join(path, i), depth: depth + 1 });
      continue;
    }
    if (Buffer.isBuffer(value)) continue;
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (key.includes(NUL)) return { path: join(path, key), message: NUL_KEY_MESSAGE };
      stack.push({ value: (value as Record<string, unknown>)[key], path: join(path, key), depth: depth + 1 });
    }
  }
  return null;
}

/**
 * Rules every request obeys before its route's schema runs, so that a route added tomorrow — with a
 * schema or without — is covered without thinking about it (docs/DECISIONS.md "Input limits"):
 * no NUL character anywhere (PostgreSQL cannot store it in text), no absurd nesting. A refusal is the
 * same 400 `{ error: 'badRequest', message, fields }` the schema errors give.
 */
export function registerInputHygiene(app: FastifyInstance): void {
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    const problem =
      findInputProblem(request.params, 'params') ?? findInputProblem(request.query, 'querystring') ?? findInputProblem(request.body, 'body');
    done(problem ? badRequest(`Invalid request: ${problem.path} ${problem.message}`, [problem]) : undefined);
  });
}
