/**
 * Fuzzes every route of /api/openapi.json (a route added tomorrow is fuzzed without a line here):
 * bodies, query strings and path parameters derived from the route's schema, then mutated (wrong
 * types, NUL characters in strings and keys, numbers past every column, long strings, deep nesting,
 * unknown fields), plus fixed cases (broken JSON, wrong content type, empty and 20 MB bodies).
 * Every answer: never a 5xx; every 4xx is `{ error, message }` without internals. Per route, a NUL in
 * any declared string and a number past its column answer 400 naming the field (docs/DECISIONS.md
 * "Input limits"). FUZZ_RUNS=<n> runs more cases per route; a failure prints its seed, which
 * FUZZ_SEED=<seed> replays (with `-t '<route>'`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { and, eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INT4_MAX } from '@bo/shared/numbers';
import { modules, moduleSkus } from '../../src/db/schema.js';
import { registerErrorHandler } from '../../src/plugins/error-handler.js';
import { MAX_INPUT_DEPTH } from '../../src/plugins/input-hygiene.js';
import { testDatabase } from '../test-database.js';
import { checkAnswer, fieldsOf, isStaticWebRoute, leakIn, type Sent } from './answer-checks.js';
import {
  bodyArbitrary,
  DEEP_ARRAYS,
  DEEP_OBJECTS,
  example,
  fieldName,
  fuzzUrl,
  hostileValue,
  INT4_OVERFLOW,
  leavesOf,
  parametersArbitrary,
  pathParams,
  queryParams,
  queryText,
  setAt,
  toJsonText,
  validBodyArbitrary,
  validParametersArbitrary,
  type Hints,
} from './fuzz-inputs.js';
import { buildFuzzWorld, routesAtCollection, type FuzzWorld } from './fuzz-world.js';
import type { ApiParameter, ApiRoute } from './openapi-routes.js';
import { injectFinite } from './finite-inject.js';

const routes = await routesAtCollection();
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
/** 20 MB of 'y', written once and spliced into each route's body (building it per route would cost seconds). */
const TWENTY_MB = Buffer.alloc(20 * 1024 * 1024, 'y');
const BIG_MARK = '__FUZZ_BIG__';

/** The JSON text of `value` with the string BIG_MARK replaced by the 20 MB of 'y'. */
function withTwentyMb(value: unknown): Buffer {
  const [before, after] = toJsonText(value).split(BIG_MARK) as [string, string];
  return Buffer.concat([Buffer.from(before), TWENTY_MB, Buffer.from(after)]);
}

/** Integer fields whose column is a bigint (int8): 2147483648 is a possible id there, so it may answer 404. */
const INT8_FIELDS = new Set(['GET /api/jobs/{id} params.id', 'GET /data/export/files/{id} params.id']);

let world: FuzzWorld;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'body-fuzz-'));

beforeAll(async () => {
  world = await buildFuzzWorld(dataDir);
}, 120_000);
afterAll(async () => {
  await world?.app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A fuzzed call may have changed the world (a user disabled, a release closed): rebuild it when the admin is locked out. */
beforeEach(async () => {
  const res = await world.app.inject({ method: 'GET', url: '/api/authorization/user', headers: world.admin });
  if (res.statusCode !== 200) {
    await world.app.close();
    world = await buildFuzzWorld(dataDir);
  }
});

const sleep = (ms: number) => new Promise<null>((r) => setTimeout(() => r(null), ms));

/**
 * Sends one request and checks its answer. A call that waits for its job (a cluster copy waits for the
 * copy) gets the jobs run after half a second; the runner is otherwise off in tests.
 */
async function send(route: ApiRoute | null, sent: Sent) {
  const headers: Record<string, string> = { ...world.admin };
  if (sent.contentType) headers['content-type'] = sent.contentType;
  let answered = false;
  const pending = injectFinite(world.app, { method: sent.method as 'GET', url: sent.url, headers, ...(sent.body !== undefined ? { payload: sent.body } : {}) });
  void pending.finally(() => (answered = true)).catch(() => {});
  if (!(await Promise.race([pending, sleep(500)]))) {
    while (!answered) {
      await world.app.jobs.drain();
      await sleep(20);
    }
  }
  const res = await pending;
  checkAnswer(route, sent, res);
  return res;
}

const jsonCall = (method: string, url: string, body: unknown): Sent =>
  body === undefined ? { method, url } : { method, url, body: toJsonText(body), contentType: 'application/json' };

/** Valid-looking values of every path and query parameter (query parameters all present). */
function baseParameters(route: ApiRoute, hints: Hints) {
  const values = (list: readonly ApiParameter[]) =>
    Object.fromEntries(list.map((p) => [p.name, String(example(p.schema ?? { type: 'string' }, p.name, hints))]));
  return { path: values(pathParams(route)), query: values(queryParams(route)) };
}

const first = (v: string | string[]) => (Array.isArray(v) ? (v[0] ?? '') : v);
const parameterType = (p: ApiParameter) => {
  const t = p.schema?.type;
  return Array.isArray(t) ? t.find((x) => x !== 'null') : t;
};

describe.each(routes.map((r) => [r.key, r] as const))('%s', (_key, route) => {
  it('answers hostile bodies, queries and path parameters without a 5xx or internals', async () => {
    const { hints } = world;
    // One case in four is valid-looking throughout (it reaches the services and the database); the
    // others mutate the body and put hostile texts in the query and path.
    const valid = fc.record({
      path: validParametersArbitrary(pathParams(route), hints),
      query: validParametersArbitrary(queryParams(route), hints),
      body: route.body ? validBodyArbitrary(route.body, hints) : fc.constant(undefined),
    });
    const hostile = fc.record({
      path: parametersArbitrary(pathParams(route), hints),
      query: parametersArbitrary(queryParams(route), hints),
      body: route.body ? bodyArbitrary(route.body, hints) : route.method === 'GET' ? fc.constant(undefined) : fc.option(hostileValue, { nil: undefined }),
    });
    const input = fc.oneof({ arbitrary: valid, weight: 1 }, { arbitrary: hostile, weight: 3 });
    await fc.assert(
      fc.asyncProperty(input, async ({ path, query, body }) => {
        const pathValues = Object.fromEntries(Object.entries(path.values).map(([k, v]) => [k, first(v)]));
        await send(route, jsonCall(route.method, fuzzUrl(route, pathValues, queryText(query.values, query.extra)), body));
      }),
      {
        numRuns: isStaticWebRoute(route) ? 3 : RUNS,
        endOnFailure: true,
        includeErrorInReport: true,
        ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
      },
    );
  });

  it('refuses a NUL in every declared string, and numbers past their column, naming the field', async () => {
    const { hints } = world;
    const base = baseParameters(route, hints);
    const bodyBase = route.body ? example(route.body, 'body', hints) : undefined;
    const problems: string[] = [];
    const expect400 = async (sent: Sent, field: string, why: string) => {
      const res = await send(route, sent);
      if (res.statusCode !== 400) problems.push(`${why} at ${field}: answered ${res.statusCode} ${res.body.slice(0, 200)}`);
      else if (!fieldsOf(res).some((f) => f.path === field)) problems.push(`${why} at ${field}: 400 without that field: ${res.body.slice(0, 300)}`);
    };
    const urlWith = (path: Record<string, string>, query: Record<string, string>) => fuzzUrl(route, path, queryText(query));

    for (const p of [...pathParams(route), ...queryParams(route)]) {
      const inPath = p.in === 'path';
      const field = fieldName(inPath ? 'params' : 'querystring', [p.name]);
      const withValue = (v: string) => (inPath ? urlWith({ ...base.path, [p.name]: v }, base.query) : urlWith(base.path, { ...base.query, [p.name]: v }));
      await expect400(jsonCall(route.method, withValue('a\u0000b'), bodyBase), field, 'NUL');
      const type = parameterType(p);
      if (type === 'integer' || type === 'number') {
        if (INT8_FIELDS.has(`${route.key} ${field}`)) await send(route, jsonCall(route.method, withValue(String(INT4_OVERFLOW)), bodyBase));
        else await expect400(jsonCall(route.method, withValue(String(INT4_OVERFLOW)), bodyBase), field, String(INT4_OVERFLOW));
        await expect400(jsonCall(route.method, withValue('1e308'), bodyBase), field, '1e308');
      }
    }

    if (route.body) {
      const url = urlWith(base.path, base.query);
      for (const leaf of leavesOf(route.body)) {
        const field = fieldName('body', leaf.path);
        const value = example(route.body, 'body', hints, leaf.choices);
        await expect400(jsonCall(route.method, url, setAt(value, leaf.path, 'a\u0000b')), field, 'NUL');
        if (leaf.type === 'string') continue;
        // Every number past int4, but a decimal whose column holds more (priceMin: numeric(12,2)) and says so.
        if (leaf.type === 'integer' || (leaf.schema.maximum ?? 0) < INT4_OVERFLOW)
          await expect400(jsonCall(route.method, url, setAt(value, leaf.path, INT4_OVERFLOW)), field, String(INT4_OVERFLOW));
        await expect400(jsonCall(route.method, url, setAt(value, leaf.path, 1e308)), field, '1e308');
      }
    }
    expect(problems).toEqual([]);
  });

  if (route.method !== 'GET') {
    it('answers broken JSON, a wrong content type, an empty and a 20 MB body with a clean 4xx', async () => {
      const { hints } = world;
      const base = baseParameters(route, hints);
      const url = fuzzUrl(route, base.path, queryText(base.query));
      const broken = await send(route, { method: route.method, url, body: '{"a": [1, 2', contentType: 'application/json' });
      expect(broken.statusCode).toBe(400);
      const notJson = await send(route, { method: route.method, url, body: 'not json at all', contentType: 'application/json' });
      expect(notJson.statusCode).toBe(400);
      const xml = await send(route, { method: route.method, url, body: '<a>1</a>', contentType: 'application/xml' });
      expect(xml.statusCode).toBe(415);
      expect(xml.json().error).toBe('unsupportedMediaType');
      const empty = await send(route, { method: route.method, url, body: '', contentType: 'application/json' });
      if (route.body) expect(empty.statusCode).toBe(400);
      const proto = await send(route, { method: route.method, url, body: '{"__proto__": {"isAdmin": true}}', contentType: 'application/json' });
      expect(proto.statusCode).toBe(400);
      // 20 MB: in the first string field when there is one (its length rule answers), else in an unknown field.
      const bodyBase = route.body ? example(route.body, 'body', hints) : {};
      const leaf = route.body ? leavesOf(route.body).find((l) => l.type === 'string') : undefined;
      const huge = leaf && route.body ? setAt(example(route.body, 'body', hints, leaf.choices), leaf.path, BIG_MARK) : { ...(bodyBase as object), huge: BIG_MARK };
      const res = await send(route, { method: route.method, url, body: withTwentyMb(huge), contentType: 'application/json' });
      if (leaf?.schema.maxLength !== undefined) expect(res.statusCode).toBe(400);
    });
  }
});

// ───────────── the reproductions of the attack report, and the global rules ─────────────

describe('reproductions', () => {
  // The fuzzing above may have closed the release or changed grants: these start from a fresh world.
  beforeAll(async () => {
    await world.app.close();
    world = await buildFuzzWorld(dataDir);
  }, 120_000);
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => send(null, jsonCall(method, url, body));
  const expectField = async (res: Awaited<ReturnType<typeof call>>, field: string) => {
    expect(res.statusCode, res.body).toBe(400);
    // badRequest, or the key a route gives its bad input (the creation calls answer 'invalidCluster').
    expect(res.json().error).toMatch(/^(badRequest|invalid\w+)$/);
    expect(fieldsOf(res).map((f) => f.path)).toContain(field);
  };
  const lockMod1 = async () => {
    const res = await call('POST', '/api/module/lock', [{ moduleName: 'MOD1', monthId: 'M01_2027' }]);
    expect(res.statusCode, res.body).toBe(200);
  };
  const mod1Save = (lines: unknown[], extra: object = {}) => ({ moduleName: 'MOD1', monthId: 'M01_2027', productDtoList: lines, ...extra });
  const mod1 = async () => {
    const [row] = await world.app.database.db.select().from(modules).where(and(eq(modules.moduleName, 'MOD1'), eq(modules.monthId, 'M01_2027')));
    return row!;
  };
  const mod1Lines = async () => world.app.database.db.select().from(moduleSkus).where(eq(moduleSkus.moduleId, (await mod1()).id));
  const line = async (minValue: unknown) => {
    const [first] = await mod1Lines();
    return { upc: first!.upc, mustHave: true, moduleCompositionStatus: 'ADDED', minValue };
  };

  it('POST /api/user/2147483648/enable → 400', async () => {
    await expectField(await call('POST', '/api/user/2147483648/enable'), 'params.userId');
    await expectField(await call('POST', `/api/user/${INT4_MAX + 1}/disable`), 'params.userId');
  });

  it('classification delete with classificationId 2147483648 or 99999999999 → 400', async () => {
    await expectField(await call('DELETE', '/api/classification/delete?classificationId=2147483648'), 'querystring.classificationId');
    await expectField(await call('DELETE', '/api/classification/delete?classificationId=99999999999'), 'querystring.classificationId');
  });

  it('login with a NUL in the username → 400 (before any lookup)', async () => {
    const res = await world.app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'ad\u0000min', password: 'secret' } });
    expect(res.statusCode, res.body).toBe(400);
    expect(fieldsOf(res)).toEqual([{ path: 'body.username', message: expect.stringContaining('NUL') }]);
  });

  it('minValue 999999999 in a module save → 400; 99,999,999.9 (numeric(9,1) max) is stored', async () => {
    await lockMod1();
    await expectField(await call('POST', '/api/module/save', mod1Save([await line(999_999_999)])), 'body.productDtoList.0.minValue');
    await expectField(await call('POST', '/api/module/save', mod1Save([await line('100000000')])), 'body.productDtoList.0.minValue');
    const ok = await call('POST', '/api/module/save', mod1Save([await line(99_999_999.9)]));
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await mod1Lines()).map((r) => r.minValue)).toEqual([99_999_999.9]);
  });

  it('a NUL in a path parameter (/api/module/A%00B/months) → 400', async () => {
    await expectField(await call('GET', '/api/module/A%00B/months'), 'params.moduleName');
    await expectField(await call('GET', '/api/store/bySap/%00'), 'params.codiceStoreSap');
  });

  it('the other numbers past int4 of the report → 400: export templateId, brand userIds, cluster save, massive creation, initialSize', async () => {
    await expectField(await call('POST', '/data/export/xls/module?templateId=2147483648', [{ moduleName: 'MOD1', monthId: 'M01_2027' }]), 'querystring.templateId');
    await expectField(
      await call('POST', '/api/brand/save', { brand: 'AUR', permissionMap: { view: [INT4_OVERFLOW], edit: [], submit: [] } }),
      'body.permissionMap.view.0',
    );
    await expectField(
      await call('POST', '/api/cluster/save', [{ clusterId: 'CL1', monthId: 'M01_2027', classifications: [{ classificationId: INT4_OVERFLOW }] }]),
      'body.0.classifications.0.classificationId',
    );
    const cluster = {
      clusterId: 'NEWCL',
      clusterLabel: 'New cluster',
      monthId: 'M01_2027',
      brandCode: 'AUR',
      collection: 'SUN',
      lias: ['LIA01'],
      starZones: ['EU'],
      stores: [{ codiceStoreSap: 'S1', starsCustomer: 'C1', customerSegmentation: 'GOLD' }],
      classifications: [INT4_OVERFLOW],
    };
    await expectField(await call('POST', '/api/cluster/massiveCreation', [cluster]), 'body.0.classifications.0');
    const module = {
      moduleName: 'NEWMOD',
      moduleLabel: 'New module',
      monthId: 'M01_2027',
      macroFamily: 'PILOT',
      brand: 'AUR',
      collection: 'SUN',
      starZones: ['EU'],
      initialSize: INT4_OVERFLOW,
    };
    await expectField(await call('POST', '/api/module/create', module), 'body.initialSize');
    const created = await call('POST', '/api/module/create', { ...module, initialSize: INT4_MAX });
    expect(created.statusCode, created.body).toBe(200);
    await expectField(await call('POST', '/api/module/deleted?pageNumber=2147483648', { status: [] }), 'querystring.pageNumber');
  });

  it('a NUL in a key of the body or of the query → 400 naming it', async () => {
    await expectField(await call('POST', '/api/cluster/lock', [{ clusterId: 'CL1', monthId: 'M01_2027', 'x\u0000': 1 }]), 'body.0.x\\u0000');
    await expectField(await call('GET', '/api/month/all?a%00b=1'), 'querystring.a\\u0000b');
  });

  it(`a body nested deeper than ${MAX_INPUT_DEPTH} levels → 400 (10,000 levels of arrays or objects)`, async () => {
    for (const deep of [DEEP_ARRAYS, DEEP_OBJECTS]) {
      const res = await call('POST', '/api/cluster/lock', [{ clusterId: 'CL1', monthId: 'M01_2027', extra: deep }]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain('Nested more than');
    }
  });

  it('a body over the 50 MB limit → 413 { error: payloadTooLarge }', async () => {
    const res = await call('POST', '/api/cluster/lock', [{ clusterId: 'x'.repeat(51 * 1024 * 1024), monthId: 'M01_2027' }]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'payloadTooLarge', message: expect.any(String) });
  });

  it('unknown fields are ignored, never stored (a module save cannot set moduleLabel or another column)', async () => {
    await lockMod1();
    const res = await call('POST', '/api/module/save', mod1Save([{ ...(await line(2)), skuId: 1, position: 99, evil: 'x' }], { moduleLabel: 'HACKED', status: 'SUBMITTED', brandCode: 'VLT' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(await mod1()).toMatchObject({ moduleLabel: 'MOD1 label', status: 'WIP', brandCode: 'AUR' });
    expect((await mod1Lines()).map((l) => [l.position, l.minValue])).toEqual([[0, 2]]);
  });

  it('the hidden routes (API description, docs page, aliases) obey the NUL rule too', async () => {
    await expectField(await call('GET', '/api/openapi.json?x=%00'), 'querystring.x');
    await expectField(await call('GET', '/api/user?x=%00'), 'querystring.x');
    const docs = await call('GET', '/api/docs?x=%00');
    expect(docs.statusCode).toBe(400);
  });
});

describe('the error handler maps database data exceptions (SQLSTATE class 22) to 400', () => {
  it.each([
    ['22003 numeric out of range', sql`SELECT ${INT4_OVERFLOW}::int4`, 'a number is out of range'],
    ['22P02 invalid text representation', sql`SELECT ${'abc'}::int4`, 'does not have the expected format'],
    ['22007 invalid date', sql`SELECT ${'not a date'}::date`, 'a date or time is not valid'],
    ['22021 NUL in text', sql`SELECT ${'a\u0000b'}::text`, 'cannot be stored'],
  ])('%s → 400 without internals, logged at warn', async (_name, query, text) => {
    const database = await testDatabase();
    const logged: { level: number; msg: string }[] = [];
    const app = Fastify({
      logger: {
        level: 'warn',
        stream: { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) },
      },
    });
    registerErrorHandler(app);
    app.get('/probe', async () => database.db.execute(query));
    try {
      const res = await app.inject({ method: 'GET', url: '/probe' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ error: 'badRequest', message: expect.stringContaining(text) });
      expect(leakIn(res.body)).toBeNull();
      expect(logged.some((l) => l.level === 40 && l.msg.includes('refused a value'))).toBe(true);
    } finally {
      await app.close();
    }
  });
});
