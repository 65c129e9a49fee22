/**
 * The fast staging path's cell rules (plain-cells.ts) against parseCell, on the test database: whatever
 * SQL calls plain, parseCell accepts with the same value — for every column type of the four formats,
 * on generated cells full of near misses (spaces of every kind, decimal commas, lower case, repeats).
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/test-database.js';
import { queryRows, type Database } from '../../db/client.js';
import { FORMATS, parseCell, type ColumnSpec } from './formats.js';
import { notPlain, plainValue } from './plain-cells.js';

/** The worker's shared test database (not closed here: the other test files of the worker use it too). */
let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

/** One column per distinct type, required flag and default among the four formats. */
const SPECS: ColumnSpec[] = [
  ...new Map(
    Object.values(FORMATS)
      .flatMap((f) => f.columns)
      .map((c) => [JSON.stringify([c.type, c.required ?? false, c.default ?? null]), c]),
  ).values(),
];

const CHARS = ['0', '1', '2', '9', '-', '.', ',', ' ', '\u00a0', '\t', '\u2003', '\ufeff', '|', 'a', 'E', 'L', 'M', 'H', 'm', 'h', 'e', 'l', 'T', 'R', 'U', 'Y', 'S', 'x', 'é', '😀', 'A', 'D', 'N', 'W', 'I', 'C'];
const TYPICAL = ['', ' ', 'MH', 'EL', 'mh', 'true', 'false', 'TRUE', 'yes', 'x', '0', '1', '-1', '12', '007', '12.5', '12,5', '1.25', '1.50', '1e3', '2147483647', '2147483648',
  '999999999999999', '2026-02-28', '2026-02-30', '0050-01-01', '1999-12-31', '2026-1-05', 'ADDED', 'added', 'REMOVED', 'EU|NA', 'EU||NA', 'EU|EU', 'EU| NA', ' EU', 'EU ', 'NA|EU|NA', 'MODULE', 'CLUSTER'];
const cell = fc.oneof(fc.constantFrom(...TYPICAL), fc.array(fc.constantFrom(...CHARS), { maxLength: 14 }).map((cs) => cs.join('')), fc.constant(null));

/** SQL's verdict on one cell: null when not plain (or its cast fails), else the staged value as text. */
async function sqlVerdict(spec: ColumnSpec, raw: string | null): Promise<string | null | undefined> {
  const v = sql`${raw}::text`;
  try {
    const [row] = await queryRows<{ not_plain: boolean | null; value: string | null }>(
      database.db,
      sql`SELECT ${notPlain(spec, v)} AS not_plain, CASE WHEN ${notPlain(spec, v)} THEN NULL ELSE (${plainValue(spec, v)})::text END AS value`,
    );
    return row!.not_plain === true ? undefined : row!.value;
  } catch {
    return undefined;
  }
}

const asText = (value: string | number | boolean | null): string | null => (value === null ? null : String(value));

describe('plain cells (fast staging) never accept what parseCell refuses, and stage the same value', () => {
  for (const spec of SPECS) {
    it(`${spec.name} (${spec.type.kind}${spec.required ? ', required' : ''}${spec.default !== undefined ? `, default ${String(spec.default)}` : ''})`, async () => {
      await fc.assert(
        fc.asyncProperty(cell, async (raw) => {
          const staged = await sqlVerdict(spec, raw);
          if (staged === undefined) return;
          const parsed = parseCell(spec, raw);
          expect(parsed, `SQL took ${JSON.stringify(raw)}`).toMatchObject({ ok: true });
          if (!parsed.ok) return;
          if (spec.type.kind === 'decimal' || spec.type.kind === 'int' || spec.type.kind === 'bigint') {
            // + 0: the columns hold no negative zero ('-0' is 0 in the database).
            expect(staged === null ? null : Number(staged) + 0).toBe(parsed.value === null ? null : Number(parsed.value) + 0);
          } else {
            expect(staged).toBe(asText(parsed.value));
          }
        }),
        { numRuns: 150 },
      );
    });
  }

  it('takes the ordinary cells of a well-made file (so the fast path is not empty)', async () => {
    const ordinary: [ColumnSpec, string][] = [
      [FORMATS.module.columns.find((c) => c.db === 'must_have')!, 'EL'],
      [FORMATS.module.columns.find((c) => c.db === 'min_value')!, '2.5'],
      [FORMATS.module.columns.find((c) => c.db === 'stars_zones')!, 'EU|NA'],
      [FORMATS.module.columns.find((c) => c.db === 'position')!, '12'],
      [FORMATS.registry.columns.find((c) => c.db === 'release_date')!, '2026-11-01'],
      [FORMATS.registry.columns.find((c) => c.db === 'sku_id')!, '123456'],
      [FORMATS.registry.columns.find((c) => c.db === 'srp')!, '129.90'],
    ];
    for (const [spec, raw] of ordinary) expect(await sqlVerdict(spec, raw), `${spec.name} ${raw}`).not.toBeUndefined();
  });
});
