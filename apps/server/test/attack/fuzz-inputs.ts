/**
 * Inputs for the fuzz suites, derived from a route's JSON schema (as /api/openapi.json describes it):
 * a valid-looking example, the list of its leaf fields, fast-check generators of valid-looking values,
 * and the hostile values the mutations put into them.
 */
import fc from 'fast-check';
import type { ApiParameter, ApiRoute, JsonSchema } from './openapi-routes.js';

export type Path = (string | number)[];

/** Values of the test world, by field name: examples use them so that some requests reach the database. */
export type Hints = Record<string, readonly (string | number)[]>;

export const INT4_OVERFLOW = 2_147_483_648;

/**
 * Stand-ins expanded when the request is written: a 10,000-level value cannot even go through
 * JSON.stringify, and 100,000-character strings would flood fast-check's reports.
 */
export const DEEP_ARRAYS = '__FUZZ_DEEP_ARRAYS__';
export const DEEP_OBJECTS = '__FUZZ_DEEP_OBJECTS__';
export const LONG_STRING = '__FUZZ_LONG_STRING__';
const DEEP_LEVELS = 10_000;
const LONG = 'x'.repeat(100_000);

/** JSON text of a value, with the stand-ins expanded. */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  if (!text.includes('__FUZZ_')) return text;
  return text
    .replaceAll(`"${DEEP_ARRAYS}"`, '['.repeat(DEEP_LEVELS) + ']'.repeat(DEEP_LEVELS))
    .replaceAll(`"${DEEP_OBJECTS}"`, '{"a":'.repeat(DEEP_LEVELS) + '1' + '}'.repeat(DEEP_LEVELS))
    .replaceAll(LONG_STRING, LONG);
}

/** Percent-encodes any text, lone surrogates included (as the invalid UTF-8 bytes they would be). */
export function encodeAny(text: string): string {
  const expanded = text.replaceAll(LONG_STRING, LONG);
  try {
    return encodeURIComponent(expanded);
  } catch {
    const hex = (n: number) => `%${n.toString(16).toUpperCase()}`;
    let out = '';
    for (const ch of expanded) {
      const code = ch.codePointAt(0)!;
      out += code >= 0xd800 && code <= 0xdfff ? hex(0xe0 | (code >> 12)) + hex(0x80 | ((code >> 6) & 0x3f)) + hex(0x80 | (code & 0x3f)) : encodeURIComponent(ch);
    }
    return out;
  }
}

/** A concrete URL of a route, like urlFor but for any text (stand-ins expanded, lone surrogates encoded). */
export function fuzzUrl(route: ApiRoute, values: Record<string, string>, query = ''): string {
  const path = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeAny(values[name] ?? (name === '*' ? 'x' : '1')));
  return query ? `${path}?${query}` : path;
}

const branchesOf = (s: JsonSchema) => s.anyOf ?? s.oneOf ?? null;
const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);
const isNullOnly = (s: JsonSchema) => typeOf(s) === 'null' || (Array.isArray(s.type) && s.type.every((t) => t === 'null'));

function stringExample(s: JsonSchema): string {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 20;
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    const found = ['M01_2027', '1', 'a', 'A', 'AB1', 'a@example.com'].find((c) => re.test(c) && c.length >= min && c.length <= max);
    if (found) return found;
  }
  return 'a'.repeat(Math.min(Math.max(min, 1), max));
}

function numberExample(s: JsonSchema): number {
  let v = 1;
  if (s.minimum !== undefined && v < s.minimum) v = s.minimum;
  if (s.exclusiveMinimum !== undefined && typeof s.exclusiveMinimum === 'number' && v <= s.exclusiveMinimum) v = s.exclusiveMinimum + 1;
  if (s.maximum !== undefined && v > s.maximum) v = s.maximum;
  return v;
}

function hinted(name: string, hints: Hints, s: JsonSchema, index: number): string | number | undefined {
  const list = hints[name];
  if (!list?.length) return undefined;
  const v = list[index % list.length]!;
  const t = typeOf(s);
  if (t === 'string') return typeof v === 'string' ? v : String(v);
  if (t === 'integer' || t === 'number') return typeof v === 'number' ? v : undefined;
  return undefined;
}

/**
 * A valid-looking value of `schema` (every optional property present, one item per list). `choices`
 * picks the branch of a union (by schema node), so that a path through any branch can be built.
 */
export function example(schema: JsonSchema, name: string, hints: Hints, choices: ReadonlyMap<JsonSchema, number> = new Map(), index = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const branches = branchesOf(schema);
  if (branches) {
    const i = choices.get(schema) ?? Math.max(0, branches.findIndex((b) => !isNullOnly(b)));
    return example(branches[i]!, name, hints, choices, index);
  }
  if (schema.allOf?.length) return example(schema.allOf[0]!, name, hints, choices, index);
  switch (typeOf(schema)) {
    case 'string':
      return hinted(name, hints, schema, index) ?? stringExample(schema);
    case 'integer':
    case 'number':
      return hinted(name, hints, schema, index) ?? numberExample(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const n = Math.min(Math.max(schema.minItems ?? 1, 1), schema.maxItems ?? 1);
      return Array.from({ length: n }, (_, i) => (schema.items ? example(schema.items, name, hints, choices, i) : 'x'));
    }
    case 'object':
    default: {
      if (!schema.properties && typeOf(schema) !== 'object') return 'x';
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) out[key] = example(prop, key, hints, choices, index);
      return out;
    }
  }
}

/** A leaf field of a schema: where it is, its type, and the union branches that lead to it. */
export interface Leaf {
  path: Path;
  type: 'string' | 'integer' | 'number';
  schema: JsonSchema;
  choices: ReadonlyMap<JsonSchema, number>;
}

/** Every string and number field of a schema, through every union branch (list items at index 0). */
export function leavesOf(schema: JsonSchema, path: Path = [], choices: ReadonlyMap<JsonSchema, number> = new Map(), out: Leaf[] = []): Leaf[] {
  const branches = branchesOf(schema);
  if (branches) {
    branches.forEach((b, i) => {
      if (!isNullOnly(b)) leavesOf(b, path, new Map(choices).set(schema, i), out);
    });
    return out;
  }
  if (schema.allOf?.length) return leavesOf(schema.allOf[0]!, path, choices, out);
  const t = typeOf(schema);
  if (t === 'string' || t === 'integer' || t === 'number') out.push({ path, type: t, schema, choices });
  else if (t === 'array' && schema.items && (schema.maxItems ?? 1) > 0) leavesOf(schema.items, [...path, 0], choices, out);
  else if (schema.properties) for (const [key, prop] of Object.entries(schema.properties)) leavesOf(prop, [...path, key], choices, out);
  return out;
}

/** A copy of `root` with the value at `path` replaced. */
export function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy: unknown[] = [...root];
    copy[head as number] = setAt(copy[head as number], rest, value);
    return copy;
  }
  const copy: Record<string, unknown> = { ...(root as Record<string, unknown>) };
  copy[head as string] = setAt(copy[head as string], rest, value);
  return copy;
}

/** Every place of a value (itself included), for the mutations to pick from. */
export function placesOf(root: unknown): { path: Path; value: unknown }[] {
  const out: { path: Path; value: unknown }[] = [];
  const stack: { path: Path; value: unknown }[] = [{ path: [], value: root }];
  while (stack.length) {
    const item = stack.pop()!;
    out.push(item);
    if (Array.isArray(item.value)) item.value.forEach((v, i) => stack.push({ path: [...item.path, i], value: v }));
    else if (item.value !== null && typeof item.value === 'object')
      for (const [k, v] of Object.entries(item.value)) stack.push({ path: [...item.path, k], value: v });
  }
  return out;
}

/** The field name errors give it: 'body.productDtoList.0.minValue', 'querystring.id', 'params.userId'. */
export const fieldName = (context: 'body' | 'querystring' | 'params', path: Path) => [context, ...path].join('.');

// ───────────── hostile values ─────────────

/** The values the mutations put anywhere in a body. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      '',
      [],
      {},
      'x',
      INT4_OVERFLOW,
      -INT4_OVERFLOW - 1,
      99_999_999_999,
      999_999_999,
      // 2^53 + 1: past the last integer a double holds exactly (JSON numbers are doubles).
      2 ** 53 + 1,
      1e308,
      -1e308,
      1.5,
      0.1,
      -0.5,
      'NaN',
      'Infinity',
      '-Infinity',
      '1e308',
      '2147483648',
      '99999999999',
      '1.5',
      ' 1 ',
      '0x10',
      'null',
      'true',
      '\u0000',
      'a\u0000b',
      '\ud800',
      '😀\u200b',
      LONG_STRING,
      DEEP_ARRAYS,
      DEEP_OBJECTS,
      "' OR 1=1 --",
      '%00',
      '../../etc/passwd',
      ['a\u0000'],
      { 'k\u0000': 1 },
      { __unknownField: 'a\u0000b' },
      [LONG_STRING],
      [INT4_OVERFLOW],
    ),
    weight: 6,
  },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 6 }).map((s) => `${s}\u0000${s}`), weight: 1 },
);

/** Hostile texts for query strings and path parameters. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      '',
      'a\u0000b',
      '\u0000',
      '2147483648',
      '-2147483649',
      '99999999999',
      '9007199254740993',
      '1e308',
      '-1e308',
      '1.5',
      'NaN',
      'Infinity',
      ' 1 ',
      '0x10',
      '-1',
      '0',
      'true',
      'null',
      '\ud800',
      LONG_STRING,
      '../..',
      "' OR 1=1 --",
      '%',
      '[object Object]',
    ),
    weight: 5,
  },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 1 },
  { arbitrary: fc.integer().map(String), weight: 1 },
);

type Mutation = { kind: 'replace'; at: number; value: unknown } | { kind: 'addKey'; at: number; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: hostileValue }), weight: 4 },
  {
    arbitrary: fc.record({
      kind: fc.constant('addKey' as const),
      at: fc.nat(),
      key: fc.constantFrom('__unknownField', 'extra', 'k\u0000', 'constructor', 'id', 'x'.repeat(1000)),
      value: hostileValue,
    }),
    weight: 1,
  },
);

function applyMutation(root: unknown, m: Mutation): unknown {
  const places = placesOf(root);
  if (m.kind === 'replace') return setAt(root, places[m.at % places.length]!.path, m.value);
  const objects = places.filter((p) => p.value !== null && typeof p.value === 'object' && !Array.isArray(p.value));
  if (!objects.length) return root;
  const target = objects[m.at % objects.length]!;
  return setAt(root, target.path, { ...(target.value as object), [m.key]: m.value });
}

// ───────────── generators of valid-looking values ─────────────

function stringArb(s: JsonSchema, name: string, hints: Hints): fc.Arbitrary<string> {
  const choices: fc.Arbitrary<string>[] = [fc.constant(stringExample(s))];
  const list = hints[name]?.map(String);
  if (list?.length) choices.push(fc.constantFrom(...list));
  if (!s.pattern) choices.push(fc.string({ minLength: Math.min(s.minLength ?? 0, 40), maxLength: Math.min(s.maxLength ?? 40, 40) }));
  return fc.oneof(...choices);
}

function numberArb(s: JsonSchema, name: string, hints: Hints, integer: boolean): fc.Arbitrary<number> {
  const min = Math.max(s.minimum ?? -1000, -1000);
  const max = Math.min(s.maximum ?? 1000, 1000);
  const base = integer ? fc.integer({ min: Math.ceil(Math.min(min, max)), max: Math.floor(Math.max(min, max)) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const list = hints[name]?.filter((v): v is number => typeof v === 'number');
  return list?.length ? fc.oneof(fc.constantFrom(...list), base) : base;
}

/** Valid-looking values of a schema (with the world's values mixed in). */
export function arbitraryOf(schema: JsonSchema, name: string, hints: Hints, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const branches = branchesOf(schema);
  if (branches) return fc.oneof(...branches.map((b) => arbitraryOf(b, name, hints, depth)));
  if (schema.allOf?.length) return arbitraryOf(schema.allOf[0]!, name, hints, depth);
  switch (typeOf(schema)) {
    case 'string':
      return stringArb(schema, name, hints);
    case 'integer':
      return numberArb(schema, name, hints, true);
    case 'number':
      return numberArb(schema, name, hints, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = Math.min(schema.minItems ?? 0, 3);
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, 3));
      return schema.items && depth < 8 ? fc.array(arbitraryOf(schema.items, name, hints, depth + 1), { minLength, maxLength }) : fc.constant([]);
    }
    default: {
      if (!schema.properties) return fc.constant('x');
      const required = new Set(schema.required ?? []);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, prop] of Object.entries(schema.properties)) model[key] = arbitraryOf(prop, key, hints, depth + 1);
      return fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
    }
  }
}

/** Valid-looking bodies: the example built from the world's values, or generated ones. */
export const validBodyArbitrary = (schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> =>
  fc.oneof(fc.constant(example(schema, 'body', hints)), arbitraryOf(schema, 'body', hints));

/** A body: a valid-looking value with one to three mutations. */
export function bodyArbitrary(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  return fc.tuple(validBodyArbitrary(schema, hints), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([v, ms]) => ms.reduce(applyMutation, v));
}

/** Valid-looking query or path parameters (the example, or generated values), without unknown keys. */
export function validParametersArbitrary(params: readonly ApiParameter[], hints: Hints): fc.Arbitrary<{ values: Record<string, string | string[]>; extra: [string, string][] }> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const p of params) {
    const schema = p.schema ?? { type: 'string' };
    model[p.name] = fc.oneof(fc.constant(String(example(schema, p.name, hints))), arbitraryOf(schema, p.name, hints).map((v) => String(v)));
  }
  return fc.record({ values: fc.record(model, { requiredKeys: params.filter((p) => p.required || p.in === 'path').map((p) => p.name) }), extra: fc.constant([]) });
}

/** Query or path parameters: valid-looking texts, some replaced by hostile ones, plus unknown or repeated keys. */
export function parametersArbitrary(params: readonly ApiParameter[], hints: Hints): fc.Arbitrary<{ values: Record<string, string | string[]>; extra: [string, string][] }> {
  const model: Record<string, fc.Arbitrary<string | string[]>> = {};
  for (const p of params) {
    const schema = p.schema ?? { type: 'string' };
    const valid = arbitraryOf(schema, p.name, hints).map((v) => String(v));
    model[p.name] = fc.oneof(
      { arbitrary: valid, weight: 2 },
      { arbitrary: hostileText, weight: 3 },
      { arbitrary: fc.tuple(valid, hostileText).map(([a, b]) => [a, b]), weight: 1 },
    );
  }
  const extra = fc.array(fc.tuple(fc.constantFrom('unknown', 'a\u0000b', '__proto__', 'x[y]', ''), hostileText), { maxLength: 2 });
  return fc.record({ values: fc.record(model, { requiredKeys: params.filter((p) => p.required || p.in === 'path').map((p) => p.name) }), extra });
}

/** A query string (`a=1&b=2`), keys and values percent-encoded; arrays repeat the key. */
export function queryText(values: Record<string, string | string[] | undefined>, extra: readonly [string, string][] = []): string {
  const parts: string[] = [];
  const add = (k: string, v: string) => parts.push(`${encodeAny(k)}=${encodeAny(v)}`);
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) add(k, one);
  }
  for (const [k, v] of extra) add(k, v);
  return parts.join('&');
}

export const pathParams = (route: ApiRoute) => route.parameters.filter((p) => p.in === 'path');
export const queryParams = (route: ApiRoute) => route.parameters.filter((p) => p.in === 'query');
