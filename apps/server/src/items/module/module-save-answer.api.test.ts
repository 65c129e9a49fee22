/**
 * A save answers the module from what it read before it wrote (module-lifecycle.service `saveModuleInTx`,
 * module-composition.repository `readBeforeSave`): that answer must be the module as the module page reads it after the
 * commit (`/api/module/modules`), whatever the save changed. Property: random saves of a module whose lines have
 * figures for some SKUs, a month before, a cluster, lines in the bin, minimum values rounded by their column and stored
 * positions that are not 0..n-1 (as the release loader writes them) — each save's answer equals the page's read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { AUR_EU, buildCluster, buildModule, buildSku, buildSkuStats, buildStore } from '../../../test/builders.js';
import { buildTestApp, type TestUsers } from '../../../test/test-app.js';
import type { Db } from '../../db/client.js';

const USERS = { editor: { grants: { view: AUR_EU, edit: AUR_EU } } } as const satisfies TestUsers;
const key = { moduleName: 'MOD_S', monthId: 'M02_2027' };

let app: FastifyInstance;
let db: Db;
let headers: { authorization: string };
let upcs: string[];

beforeAll(async () => {
  const test = await buildTestApp({ reference: true, users: USERS });
  app = test.app;
  db = test.db;
  headers = await test.as('editor');
  upcs = [];
  for (let i = 0; i < 8; i++) upcs.push((await buildSku(db, i % 3 === 0 ? { sapStatus: 'Z1', flagDisco: true } : {})).upc);
  // Figures in the module's month for half the SKUs (the others answer nulls).
  for (const upc of upcs.slice(0, 4)) await buildSkuStats(db, upc, key.monthId, { sellIn: 7, skuTurn: 2.25, pty: 4 });
  // The month before: its lines make the refresh index and the previous counts.
  await buildModule(db, { moduleName: key.moduleName, monthId: 'M01_2027', skus: [{ upc: upcs[0]! }, { upc: upcs[1]!, mustHave: false }, { upc: upcs[5]!, status: 'REMOVED' }] });
  await buildModule(db, {
    ...key,
    zones: ['EU', 'NA'],
    skus: [{ upc: upcs[0]! }, { upc: upcs[2]!, mustHave: false, minValue: 2 }, { upc: upcs[3]!, status: 'REMOVED' }, { upc: upcs[4]!, status: 'NEW' }],
  });
  const store = await buildStore(db);
  await buildCluster(db, { clusterId: 'CL_S', monthId: key.monthId, storeJdas: [store.storeJda], modules: [{ moduleName: key.moduleName }] });
}, 60_000);
afterAll(async () => {
  await app?.close();
});

const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers, payload: payload as object });

interface Line {
  upc: string;
  mustHave: boolean;
  moduleCompositionStatus: 'ADDED' | 'NEW' | 'REMOVED';
  minValue: number;
  previousStatus: string | null;
}

const line = (pool: string[]) =>
  fc.record({
    upc: fc.constantFrom(...pool),
    mustHave: fc.boolean(),
    moduleCompositionStatus: fc.constantFrom('ADDED' as const, 'NEW' as const, 'REMOVED' as const),
    // Two decimals: the column keeps one, so the stored value differs from the one sent.
    minValue: fc.constantFrom(1, 2, 1.5, 1.25, 3.05, 0),
    previousStatus: fc.constantFrom(null, 'ADDED', 'NEW'),
  });

/** Stored positions as the release loader may leave them: spaced, shifted, or tied. */
const positions = fc.constantFrom('as saved', 'spaced', 'tied');

describe('the save answer', () => {
  it('is the module as the module page reads it after the commit', async () => {
    const lock = await post('/api/module/lock', [key]);
    expect(lock.json()[0].acquired).toBe(true);
    // Either lines drawn afresh, or the lines as they are with one line put in at some place and one taken out (most
    // lines then stay as stored, at their stored positions, while the others are written at their index).
    const body = fc.record({
      fresh: fc.boolean(),
      lines: fc.uniqueArray(line(upcs), { selector: (l) => l.upc, minLength: 0, maxLength: 8 }),
      at: fc.nat(8),
      out: fc.nat(8),
    });
    await fc.assert(
      fc.asyncProperty(body, positions, async ({ fresh, lines, at, out }, layout) => {
        if (layout !== 'as saved') {
          await db.execute(sql`UPDATE module_skus s SET position = ${layout === 'spaced' ? sql`s.position * 3 + 5` : sql`s.position / 2`}
                                FROM modules m WHERE m.id = s.module_id AND m.module_name = ${key.moduleName} AND m.month_id = ${key.monthId}`);
        }
        const [current] = (await post('/api/module/modules', { moduleDtoList: [key] })).json();
        let sent: Line[] = lines;
        if (!fresh) {
          sent = (current.productDtoList as Line[]).map(({ upc, mustHave, moduleCompositionStatus, minValue, previousStatus }) => ({ upc, mustHave, moduleCompositionStatus, minValue, previousStatus }));
          const added = lines.find((l) => !sent.some((c) => c.upc === l.upc));
          if (added) sent.splice(at % (sent.length + 1), 0, added);
          if (sent.length > 1) sent.splice(out % sent.length, 1);
        }
        const saved = await post('/api/module/save', { ...key, version: current.version, productDtoList: sent });
        expect(saved.statusCode, saved.body).toBe(200);
        const [read] = (await post('/api/module/modules', { moduleDtoList: [key] })).json();
        expect(saved.json()).toEqual(read);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('after a description alone is the module read again', async () => {
    const [before] = (await post('/api/module/modules', { moduleDtoList: [key] })).json();
    const saved = await post('/api/module/save?onlyDescription=true', { ...key, version: before.version, newDescription: 'Only the words' });
    expect(saved.statusCode, saved.body).toBe(200);
    const [read] = (await post('/api/module/modules', { moduleDtoList: [key] })).json();
    expect(saved.json()).toEqual(read);
    expect(read.moduleDescription).toBe('Only the words');
  });
});
