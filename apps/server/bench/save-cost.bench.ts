/**
 * What the search change log's triggers (migration 0015, lib/kept-answers.ts) add to a save:
 * `npm run bench:save-cost -w apps/server -- [--saves 200]` (the embedded database; with
 * TEST_DATABASE_URL=postgres://… a schema of its own on that PostgreSQL, as the tests do).
 *
 * One planner saves a module of 30 lines again and again through the product (`/api/module/save`, the module locked
 * once), toggling MH/EL of one line each time, in rounds that alternate the triggers off (`DISABLE TRIGGER`, the cost
 * before the log) and on, so that a busy machine weighs on both alike; beside it the bare statement the save makes of
 * the module row (`UPDATE modules …`), off and on. Prints p50 / mean per round kind and the difference; the last line
 * is `BENCH_RESULT {json}`. `--triggers live` toggles the live events' NOTIFY triggers of migration 0016 instead
 * (docs/LIVE.md "Cost").
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/db/client.js';
import { AUR_EU, buildModule, buildSku } from '../test/builders.js';
import { buildTestApp } from '../test/test-app.js';
import { percentile } from './scratch-database.js';

const { values } = parseArgs({ options: { saves: { type: 'string', default: '200' }, triggers: { type: 'string', default: 'search' } }, strict: true });
if (values.triggers !== 'search' && values.triggers !== 'live') throw new Error('--triggers: search or live');
const triggerPattern = values.triggers === 'live' ? '%\\_live\\_%' : '%\\_search\\_%';
const saves = Number(values.saves);

interface Line {
  upc: string;
  mustHave: boolean;
  moduleCompositionStatus: string;
  previousStatus: string | null;
  minValue: number;
}

async function main() {
  const { app, as } = await buildTestApp({ reference: true, users: { planner: { grants: { view: AUR_EU, edit: AUR_EU } } } });
  try {
    const db = app.database.db;
    const upcs = Array.from({ length: 30 }, (_, i) => `9${String(i).padStart(11, '0')}`);
    for (const upc of upcs) await buildSku(db, { upc });
    await buildModule(db, { moduleName: 'SAVE_COST', skus: upcs.map((upc) => ({ upc })) });
    const headers = await as('planner');
    const key = { moduleName: 'SAVE_COST', monthId: 'M01_2027' };
    const call = async (url: string, payload: unknown) => {
      const res = await app.inject({ method: 'POST', url, headers, payload: payload as object });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    await call('/api/module/lock', [key]);
    const [loaded] = (await call('/api/module/modules', { moduleDtoList: [key] })) as { version: number; productDtoList: Line[] }[];
    let version = loaded!.version;
    const lines = loaded!.productDtoList.map((l) => ({ upc: l.upc, mustHave: l.mustHave, moduleCompositionStatus: l.moduleCompositionStatus, previousStatus: l.previousStatus, minValue: l.minValue }));
    const triggers = (
      await queryRows<{ t: string; g: string }>(
        db,
        sql`SELECT c.relname AS t, g.tgname AS g FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
             WHERE c.relnamespace = current_schema()::regnamespace AND g.tgname LIKE ${triggerPattern}`,
      )
    ).map((r) => `ALTER TABLE "${r.t}" %s TRIGGER "${r.g}"`);
    const setTriggers = (on: boolean) => app.database.execScript(triggers.map((t) => t.replace('%s', on ? 'ENABLE ALWAYS' : 'DISABLE')).join(';\n'));

    const times = { save: { off: [] as number[], on: [] as number[] }, update: { off: [] as number[], on: [] as number[] } };
    const rounds = 10;
    const perRound = Math.max(1, Math.round(saves / rounds));
    for (let round = 0; round < rounds * 2; round++) {
      const on = round % 2 === 1;
      await setTriggers(on);
      for (let i = 0; i < perRound; i++) {
        lines[i % lines.length]!.mustHave = !lines[i % lines.length]!.mustHave;
        const started = performance.now();
        const saved = (await call('/api/module/save', { ...key, productDtoList: lines, version })) as { version: number };
        times.save[on ? 'on' : 'off'].push(performance.now() - started);
        version = saved.version;
        const t = performance.now();
        await db.execute(sql`UPDATE modules SET module_description = ${`round ${round} ${i}`} WHERE module_name = 'SAVE_COST'`);
        times.update[on ? 'on' : 'off'].push(performance.now() - t);
      }
    }
    await setTriggers(true);
    const logRows = (await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM search_changes`))[0]!.n;
    const stat = (list: number[]) => {
      const s = [...list].sort((a, b) => a - b);
      return { p50: percentile(s, 50), mean: s.reduce((a, b) => a + b, 0) / s.length, n: s.length };
    };
    const result = {
      database: app.database.kind,
      save: { off: stat(times.save.off), on: stat(times.save.on) },
      update: { off: stat(times.update.off), on: stat(times.update.on) },
      logRows,
    };
    console.log(`${app.database.kind}: ${perRound * rounds} saves of a 30-line module with the ${values.triggers} triggers off, as many on (alternating rounds)`);
    for (const what of ['save', 'update'] as const) {
      const { off, on } = result[what];
      const label = what === 'save' ? 'POST /api/module/save (whole call)' : 'UPDATE modules … (one statement)';
      console.log(
        `  ${label.padEnd(36)} off p50 ${off.p50.toFixed(2)} ms, mean ${off.mean.toFixed(2)} ms; on p50 ${on.p50.toFixed(2)} ms, mean ${on.mean.toFixed(2)} ms; ` +
          `difference p50 ${(on.p50 - off.p50).toFixed(2)} ms`,
      );
    }
    console.log(`  change log rows written by the saves with the triggers on: ${logRows} (one per save transaction and scope)`);
    const round = (_: string, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 100) / 100 : v);
    console.log(`BENCH_RESULT ${JSON.stringify({ bench: 'save-cost', triggers: values.triggers, ...result }, round)}`);
  } finally {
    const [{ schema } = { schema: '' }] = await queryRows<{ schema: string }>(app.database.db, sql`SELECT current_schema() AS schema`);
    await app.close();
    // The schema of its own on a shared PostgreSQL goes with the run (test-database.ts names it after this process).
    if (app.database.kind === 'postgres' && schema.startsWith('test_')) await app.database.execScript(`DROP SCHEMA "${schema}" CASCADE`);
    await app.database.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
