import type { FastifyInstance } from 'fastify';

/** A JSON schema as the OpenAPI document carries it (only the parts the attack suites read). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
}

export interface ApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

/** One operation of /api/openapi.json: every route the server serves, read the day it is added. */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path, with `{name}` placeholders: `/api/user/{userId}/enable`. */
  path: string;
  /** `METHOD path`, the key used by the expectation tables. */
  key: string;
  /** False only for the routes declared `config: { public: true }` (OpenAPI `security: []`). */
  protected: boolean;
  parameters: ApiParameter[];
  /** The JSON request body's schema, when the route takes one. */
  body: JsonSchema | null;
}

/** Reads the served API description and lists every operation. */
export async function listApiRoutes(app: FastifyInstance): Promise<ApiRoute[]> {
  const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`openapi.json answered ${res.statusCode}`);
  const doc = res.json() as {
    paths: Record<string, Record<string, { security?: unknown[]; parameters?: ApiParameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  };
  const routes: ApiRoute[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(ops)) {
      const method = m.toUpperCase() as ApiRoute['method'];
      routes.push({
        method,
        path,
        key: `${method} ${path}`,
        protected: !(Array.isArray(op.security) && op.security.length === 0),
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return routes;
}

export const isWrite = (route: ApiRoute) => route.method !== 'GET';

/** A concrete URL for a route: each `{name}` replaced by `values[name]` (or a harmless default). */
export function urlFor(route: ApiRoute, values: Record<string, string> = {}, query = ''): string {
  const path = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? (name === '*' ? 'x' : '1')));
  return query ? `${path}?${query}` : path;
}

/**
 * Every route the server registered, as `METHOD /path` in the OpenAPI spelling (`{name}`, `{*}`), read from
 * Fastify's route tree: routes hidden from /api/openapi.json (`schema.hide`) included, HEAD twins left out.
 */
export function listServerRoutes(app: FastifyInstance): string[] {
  const keys = new Set<string>();
  const stack: { depth: number; path: string }[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)(?:[├└]── )?(.*) \(([A-Z, ]+)\)$/.exec(line.trimEnd());
    if (!m) continue;
    const depth = m[1]!.length / 4;
    while (stack.length && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const parent = stack[stack.length - 1]?.path ?? '';
    const segment = m[2]!;
    const full = parent === '' ? (segment.startsWith('/') ? segment : `/${segment}`) : parent + segment;
    stack.push({ depth, path: full });
    const openApiPath = full.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');
    for (const method of m[3]!.split(',').map((s) => s.trim())) if (method !== 'HEAD') keys.add(`${method} ${openApiPath}`);
  }
  return [...keys].sort();
}
