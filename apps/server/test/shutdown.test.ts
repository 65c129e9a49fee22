import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { modules, moduleSkus } from '../src/db/schema.js';
import { buildModule, buildReference, buildSku, buildUser } from './builders.js';
import { loginOver, startServer, type RunningServer } from './server-process.js';

/**
 * Stopping the real server process under load (SIGTERM/SIGINT): requests in flight finish and are
 * stored, anything new gets 503 with `Connection: close` while the server still listens and a refused
 * connection once it stopped listening (never a reset), idle keep-alive connections do not hold the
 * stop, the database is closed and the exit code is 0 (1 only past SHUTDOWN_TIMEOUT_MS).
 */

const SAVES = 10;
/** The module a save sent while draining tries to change. */
const LATE = 'MOD_LATE';
const MONTH = 'M01_2027';
const PG_URL = process.env.TEST_DATABASE_URL;

/** A copy of the world for one server process: its environment, and direct access after it stopped. */
interface WorldCopy {
  env: Record<string, string>;
  open(): Promise<Database>;
}

/** The editor and the modules it may lock and save, built once in the database; each case stops a server on a copy of it. */
let world: { upcs: string[]; copy(): Promise<WorldCopy>; remove(): Promise<void> };

async function fillWorld(database: Database): Promise<string[]> {
  await migrate(database);
  const db = database.db;
  await buildReference(db);
  const aurEu = { brands: ['AUR'], zones: ['EU'] };
  await buildUser(db, { username: 'editor', grants: { view: aurEu, edit: aurEu } });
  const upcs = [(await buildSku(db)).upc, (await buildSku(db)).upc];
  for (const moduleName of [...Array.from({ length: SAVES }, (_, i) => `MOD_${i}`), LATE]) await buildModule(db, { moduleName, skus: [{ upc: upcs[0]! }] });
  return upcs;
}

async function embeddedWorld(): Promise<typeof world> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-shutdown-'));
  const template = path.join(root, 'template');
  const database = await openDatabase({ dataDir: template });
  const upcs = await fillWorld(database).finally(() => database.close());
  let n = 0;
  return {
    upcs,
    copy: async () => {
      const dataDir = path.join(root, `case-${++n}`);
      fs.cpSync(template, dataDir, { recursive: true });
      return { env: { DATA_DIR: dataDir }, open: () => openDatabase({ dataDir }) };
    },
    remove: async () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** On PostgreSQL: a fresh database filled once, then one copy per case (CREATE DATABASE … TEMPLATE). */
async function postgresWorld(baseUrl: string): Promise<typeof world> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const prefix = `bo_shutdown_${process.pid}_${Date.now()}`;
  const urlOf = (name: string) => Object.assign(new URL(baseUrl), { pathname: `/${name}` }).toString();
  const names = [`${prefix}_t`];
  await admin.query(`CREATE DATABASE ${names[0]}`);
  const database = await openDatabase({ url: urlOf(names[0]!), poolSize: 2 });
  const upcs = await fillWorld(database).finally(() => database.close());
  return {
    upcs,
    copy: async () => {
      const name = `${prefix}_${names.length}`;
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${names[0]}`);
      names.push(name);
      return { env: { DATABASE_URL: urlOf(name) }, open: () => openDatabase({ url: urlOf(name), poolSize: 2 }) };
    },
    remove: async () => {
      for (const name of names.reverse()) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

beforeAll(async () => {
  world = PG_URL ? await postgresWorld(PG_URL) : await embeddedWorld();
});
afterAll(async () => {
  await world?.remove();
});

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
  at: number;
}

/** Starts a request; `finish` sends the rest of the body (all of it at once unless `holdBody`). */
function request(url: string, opts: { method?: string; path: string; token?: string; body?: unknown; agent?: http.Agent | false; holdBody?: boolean }) {
  const { port } = new URL(url);
  const data = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: opts.method ?? (data ? 'POST' : 'GET'),
    path: opts.path,
    agent: opts.agent ?? false,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(data ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)) } : {}),
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body, at: Date.now() }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  // Awaited by the test where it matters; a test failing early must not add unhandled rejections.
  answer.catch(() => {});
  // The headers and the first bytes of the body go now: the server has the request in hand.
  if (data && opts.holdBody) req.write(data.slice(0, 5));
  else req.end(data);
  return { answer, finish: () => req.end(data?.slice(5)) };
}

/** The error code of a request that should fail (or 'answered <status>'). */
async function failure(answer: Promise<Answer>): Promise<string> {
  return answer.then(
    (a) => `answered ${a.status}`,
    (err: NodeJS.ErrnoException) => err.code ?? String(err),
  );
}

async function waitUntil(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function logLines(server: RunningServer): { msg?: string; req?: { method: string; url: string } }[] {
  return server
    .output()
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { msg?: string }];
      } catch {
        return [];
      }
    });
}
const logged = (server: RunningServer, msg: string) => logLines(server).some((l) => l.msg === msg);

function exitOf(server: RunningServer): Promise<{ code: number | null; at: number }> {
  return new Promise((resolve) => server.child.once('exit', (code) => resolve({ code, at: Date.now() })));
}

const serviceUnavailable = { error: 'serviceUnavailable', message: expect.any(String) };
const saveBody = (moduleName: string, minValue: number) => ({
  moduleName,
  monthId: MONTH,
  productDtoList: [{ upc: world.upcs[1], mustHave: false, moduleCompositionStatus: 'ADDED', minValue }],
});

async function startOnCopy(extra: Record<string, string> = {}) {
  const copy = await world.copy();
  const server = await startServer({ ...copy.env, DEMO_DATA: 'never', LOG_LEVEL: 'info', ...extra });
  return { copy, server };
}

describe('stopping the server process', () => {
  it('finishes the saves in flight, answers 503 to new requests, closes the database and exits 0', async () => {
    const { copy, server } = await startOnCopy();
    const { url } = server;
    const exited = exitOf(server);
    const agent = new http.Agent({ keepAlive: true, maxSockets: SAVES });
    try {
      const token = await loginOver(url, 'editor', 'secret');
      const keys = Array.from({ length: SAVES }, (_, i) => ({ moduleName: `MOD_${i}`, monthId: MONTH }));
      const lock = await request(url, { path: '/api/module/lock', token, body: [...keys, { moduleName: LATE, monthId: MONTH }] }).answer;
      expect(JSON.parse(lock.body).map((l: { acquired: boolean }) => l.acquired)).toEqual(Array(SAVES + 1).fill(true));
      // SAVES keep-alive connections, then one save in flight on each: the server has read their headers.
      await Promise.all(keys.map(() => request(url, { path: '/api/health', agent }).answer));
      expect(Object.values(agent.freeSockets).flat()).toHaveLength(SAVES);
      const saves = keys.map((_, i) => request(url, { path: '/api/module/save', token, agent, body: saveBody(`MOD_${i}`, i + 2), holdBody: true }));
      const savesSeen = () => logLines(server).filter((l) => l.msg === 'incoming request' && l.req?.url === '/api/module/save').length;
      await waitUntil('the saves to reach the server', () => savesSeen() === SAVES);
      // A request whose first bytes came before the signal (the rest comes while draining).
      const early = net.connect(Number(new URL(url).port), '127.0.0.1');
      await new Promise((resolve) => early.once('connect', resolve));
      early.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');

      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      await waitUntil('the signal to be handled', () => logged(server, 'shutting down: finishing in-flight requests'));

      // Still listening while the saves are in flight: anything new is refused with 503, nothing is stored.
      const during = await Promise.all([
        request(url, { path: '/api/health' }).answer,
        request(url, { path: '/api/module/save', token, body: saveBody(LATE, 99) }).answer,
        request(url, { path: '/api/authorization/user', token }).answer,
      ]);
      // A burst through a small keep-alive pool: each 503 closes its connection, the next request opens another.
      const pool = new http.Agent({ keepAlive: true, maxSockets: 2 });
      during.push(...(await Promise.all(Array.from({ length: 20 }, () => request(url, { path: '/api/health', agent: pool }).answer))));
      pool.destroy();
      for (const a of during) {
        expect(a).toMatchObject({ status: 503, connection: 'close' });
        expect(JSON.parse(a.body)).toEqual(serviceUnavailable);
      }
      const earlyAnswer = new Promise<string>((resolve) => {
        let text = '';
        early.on('data', (chunk) => (text += chunk));
        early.on('close', () => resolve(text));
      });
      early.write('\r\n');
      const earlyText = await earlyAnswer;
      expect(earlyText).toMatch(/^HTTP\/1\.1 503 /);
      expect(earlyText.toLowerCase()).toContain('connection: close');
      expect(earlyText).toContain('"error":"serviceUnavailable"');

      for (const save of saves) save.finish();
      const answers = await Promise.all(saves.map((s) => s.answer));
      for (const [i, a] of answers.entries()) {
        expect(a).toMatchObject({ status: 200, connection: 'close' });
        expect(JSON.parse(a.body)).toMatchObject({ moduleName: `MOD_${i}` });
      }
      const lastAnswerAt = Math.max(...answers.map((a) => a.at));

      await waitUntil('the listener to close', () => logged(server, 'listener closed'));
      expect(await failure(request(url, { path: '/api/health' }).answer)).toBe('ECONNREFUSED');
      const { code, at } = await exited;
      expect(code).toBe(0);
      expect(at - lastAnswerAt).toBeLessThan(2000);
      expect(logged(server, 'database closed')).toBe(true);
      console.info(`SIGTERM → last answer ${lastAnswerAt - signalledAt} ms, last answer → exit ${at - lastAnswerAt} ms`);
    } finally {
      agent.destroy();
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }

    // Every save answered 200 is stored; the one refused with 503 is not.
    const database = await copy.open();
    try {
      const added = async (moduleName: string) => {
        const [mod] = await database.db.select().from(modules).where(eq(modules.moduleName, moduleName));
        const lines = await database.db.select().from(moduleSkus).where(eq(moduleSkus.moduleId, mod!.id));
        return lines.find((l) => l.upc === world.upcs[1]);
      };
      for (let i = 0; i < SAVES; i++) expect(await added(`MOD_${i}`)).toMatchObject({ minValue: i + 2, status: 'ADDED' });
      expect(await added(LATE)).toBeUndefined();
    } finally {
      await database.close();
    }
  }, 120_000);

  it('does not wait for an idle keep-alive connection on SIGINT', async () => {
    const { server } = await startOnCopy();
    const exited = exitOf(server);
    const agent = new http.Agent({ keepAlive: true });
    try {
      expect((await request(server.url, { path: '/api/health', agent }).answer).status).toBe(200);
      const [idle] = Object.values(agent.freeSockets).flat();
      const idleClosed = new Promise((resolve) => idle!.once('close', resolve));
      const signalledAt = Date.now();
      server.child.kill('SIGINT');
      const { code, at } = await exited;
      await idleClosed;
      expect(code).toBe(0);
      // Well under the shutdown timeout (10 s) and the keep-alive timeout (72 s), either of which a server that
      // waited for the idle connection would reach; a loaded 2-core machine takes over 1 s to stop on its own.
      expect(at - signalledAt).toBeLessThan(5000);
      expect(logged(server, 'database closed')).toBe(true);
      console.info(`SIGINT with an idle keep-alive connection → exit ${at - signalledAt} ms`);
    } finally {
      agent.destroy();
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('past SHUTDOWN_TIMEOUT_MS cuts the request still in flight, still closes the database, and exits 1', async () => {
    const { server } = await startOnCopy({ SHUTDOWN_TIMEOUT_MS: '500' });
    const exited = exitOf(server);
    try {
      // A login whose body never ends: admitted, and never answered.
      const stuck = request(server.url, { path: '/api/authorization/login', body: { username: 'editor', password: 'secret' }, holdBody: true });
      const stuckFailure = failure(stuck.answer);
      await waitUntil('the login to reach the server', () => logLines(server).some((l) => l.msg === 'incoming request' && l.req?.url === '/api/authorization/login'));
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      const { code, at } = await exited;
      expect(code).toBe(1);
      expect(at - signalledAt).toBeGreaterThanOrEqual(500);
      expect(at - signalledAt).toBeLessThan(3000);
      expect(logged(server, 'shutdown timed out: closing the remaining connections')).toBe(true);
      expect(logged(server, 'database closed')).toBe(true);
      expect(await stuckFailure).toBe('ECONNRESET');
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);
});
