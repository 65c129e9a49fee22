import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { CompositionLine } from '@bo/shared/modules';
import { queryRowsNamed, type Queryable } from '../../db/client.js';
import { unnestInsert } from '../../db/unnest-insert.js';
import { moduleSkus, skus } from '../../db/schema.js';
import { factsOf, moduleFactsSelect, oneModuleKey, PRODUCT_COLUMNS, type CompositionLineRow, type FactsRow, type ModuleFacts, type ModuleRow, type ProductSkuRow } from './modules.repository.js';

/** A stored line as a save reads it before it writes: the request's line shape, with what the answer needs beside it. */
export interface StoredLineState extends CompositionLine {
  minValue: number;
  previousMustHave: boolean | null;
  position: number;
}

/** What a save reads before it writes (`readBeforeSave`). */
export interface BeforeSave {
  /** The module's stored lines, in order. */
  stored: StoredLineState[];
  /** Which of the body's UPCs exist. */
  known: Set<string>;
  /** With `answer`: what the save's answer needs besides the row and the lines as written (docs/performance.md "The save answers from what it read"). */
  answer?: { products: Map<string, ProductSkuRow>; facts: ModuleFacts };
}

type StoredJson = [upc: string, mustHave: boolean, status: CompositionLine['moduleCompositionStatus'], minValue: number, previousStatus: string | null, previousMustHave: boolean | null, position: number];

/**
 * What a save reads before it writes, as select items (`stored`, `known` or `products`, `facts`) of a statement run after
 * the row lock: the module's stored lines (in order) and which of the body's UPCs exist. With `answer` (a save that
 * answers the module), the body's SKUs with the month's figures and the module's facts instead of the UPCs alone — what
 * the answer would read again after the commit and that the save does not change — so that it is built without another
 * statement (`savedModuleDto`). `name` names the items' SQL text. Read alone by `readBeforeSave`, or within the save's
 * scope and gate statement (`loadTargets`' `alsoRead`), then taken apart by `beforeSaveOf`.
 */
export function beforeSaveSelect(row: Pick<ModuleRow, 'id' | 'monthId'>, upcs: readonly string[], answer?: { lockTtlMinutes: number }): { name: string; select: SQL } {
  const stored = sql`(SELECT json_agg(json_build_array(s.upc, s.must_have, s.status, s.min_value, s.previous_status, s.previous_must_have, s.position) ORDER BY s.position)
                        FROM module_skus s WHERE s.module_id = ${row.id}) AS stored`;
  const wanted = sql`${sql.param(upcs)}::text[]`;
  if (!answer) return { name: 'before_save', select: sql`(SELECT array_agg(k.upc) FROM skus k WHERE k.upc = ANY(${wanted})) AS known, ${stored}` };
  return {
    name: 'before_save_answered',
    select: sql`(SELECT json_agg(row_to_json(p)) FROM (SELECT ${PRODUCT_COLUMNS} FROM skus s
                  LEFT JOIN sku_month_stats st ON st.upc = s.upc AND st.month_id = ${row.monthId}
                 WHERE s.upc = ANY(${wanted})) p) AS products,
               ${stored},
               (SELECT row_to_json(f) FROM (${moduleFactsSelect(oneModuleKey(row), answer.lockTtlMinutes)}) f) AS facts`,
  };
}

/** The values of `beforeSaveSelect`'s items as a save uses them. */
export function beforeSaveOf(r: Record<string, unknown> | undefined): BeforeSave {
  const v = (r ?? {}) as { known?: string[] | null; products?: ProductSkuRow[] | null; stored?: StoredJson[] | null; facts?: FactsRow };
  if (!('products' in v)) return { known: new Set(v.known ?? []), stored: storedLines(v.stored) };
  const products = new Map((v.products ?? []).map((p) => [p.upc, p]));
  return { known: new Set(products.keys()), stored: storedLines(v.stored), answer: { products, facts: factsOf(v.facts!) } };
}

/** What a save reads before it writes (`beforeSaveSelect`), in a statement of its own, prepared once per connection. */
export async function readBeforeSave(
  db: Queryable,
  row: Pick<ModuleRow, 'id' | 'monthId'>,
  upcs: readonly string[],
  answer?: { lockTtlMinutes: number },
): Promise<BeforeSave> {
  const { name, select } = beforeSaveSelect(row, upcs, answer);
  const [r] = await queryRowsNamed<Record<string, unknown>>(db, `module_${name}`, sql`SELECT ${select}`);
  return beforeSaveOf(r);
}

const storedLines = (rows: StoredJson[] | null | undefined): StoredLineState[] =>
  (rows ?? []).map(([upc, mustHave, moduleCompositionStatus, minValue, previousStatus, previousMustHave, position]) => ({
    upc,
    mustHave,
    moduleCompositionStatus,
    minValue: Number(minValue),
    previousStatus,
    previousMustHave,
    position: Number(position),
  }));

/** The stored row of a composition line at `position`. REMOVED lines remember their class. */
const lineRow = (moduleId: number, l: CompositionLine, position: number) => ({
  moduleId,
  upc: l.upc,
  mustHave: l.mustHave,
  status: l.moduleCompositionStatus,
  previousStatus: typeof l.previousStatus === 'string' ? l.previousStatus : null,
  previousMustHave: l.moduleCompositionStatus === 'REMOVED' ? l.mustHave : null,
  minValue: l.minValue ?? 1,
  position,
});

type StoredLine = ReturnType<typeof lineRow>;

/** module_skus's columns: name, SQL type and value of a stored line. */
const LINE_COLUMNS: readonly (readonly [string, string, (l: StoredLine) => unknown])[] = [
  ['module_id', 'bigint', (l) => l.moduleId],
  ['upc', 'text', (l) => l.upc],
  ['must_have', 'boolean', (l) => l.mustHave],
  ['status', 'text', (l) => l.status],
  ['previous_status', 'text', (l) => l.previousStatus],
  ['previous_must_have', 'boolean', (l) => l.previousMustHave],
  ['min_value', 'numeric', (l) => l.minValue],
  ['position', 'integer', (l) => l.position],
];

/**
 * Inserts stored lines with one array per column (`unnestInsert`): the statement is the same whatever the line count,
 * so neither the query builder (~2 ms of CPU for 33 lines written as one parameter per cell, ~50 ms for 800) nor
 * PostgreSQL's parser grows with the module (docs/performance.md "Module lines written as arrays").
 */
function insertLines(tx: Queryable, rows: readonly StoredLine[]) {
  return tx.execute(insertStatement(rows));
}

const insertStatement = (rows: readonly StoredLine[]): SQL =>
  unnestInsert(
    'module_skus',
    LINE_COLUMNS.map(([name]) => name),
    LINE_COLUMNS.map(([, type]) => type),
    LINE_COLUMNS.map(([, , value]) => rows.map(value)),
  );

/** Replaces a module's composition (lines keep their order). */
export async function writeComposition(tx: Queryable, moduleId: number, lines: readonly CompositionLine[]): Promise<void> {
  await tx.delete(moduleSkus).where(eq(moduleSkus.moduleId, moduleId));
  if (lines.length) await insertLines(tx, lines.map((l, i) => lineRow(moduleId, l, i)));
}

const sameLine = (a: CompositionLine, b: CompositionLine) =>
  a.mustHave === b.mustHave && a.moduleCompositionStatus === b.moduleCompositionStatus && (a.minValue ?? 1) === (b.minValue ?? 1) && (a.previousStatus ?? null) === (b.previousStatus ?? null);

/**
 * Writes only what differs between the stored composition `before` and `after` (the same result as
 * writeComposition(after)): lines gone are deleted, new or changed lines (or moved ones) are upserted.
 * Answers whether anything was written, and the lines upserted as they are now stored.
 */
export async function writeCompositionChanges(
  tx: Queryable,
  moduleId: number,
  before: readonly CompositionLine[],
  after: readonly CompositionLine[],
): Promise<{ changed: boolean; written: WrittenLine[] }> {
  const old = new Map(before.map((l, i) => [l.upc, { line: l, position: i }]));
  const kept = new Set(after.map((l) => l.upc));
  const gone = before.filter((l) => !kept.has(l.upc)).map((l) => l.upc);
  if (gone.length) await tx.delete(moduleSkus).where(and(eq(moduleSkus.moduleId, moduleId), inArray(moduleSkus.upc, gone)));
  const changed = after
    .map((line, position) => ({ line, position }))
    .filter(({ line, position }) => {
      const o = old.get(line.upc);
      return !o || o.position !== position || !sameLine(o.line, line);
    });
  // Named: its text is the same whatever the lines (`unnestInsert`), so each pooled connection parses it once and
  // soon runs it on its generic plan.
  const written = changed.length
    ? await queryRowsNamed<WrittenLine>(
        tx,
        'module_lines_upsert',
        sql`${insertStatement(changed.map(({ line, position }) => lineRow(moduleId, line, position)))}
            ON CONFLICT (module_id, upc) DO UPDATE SET must_have = excluded.must_have, status = excluded.status, previous_status = excluded.previous_status,
              previous_must_have = excluded.previous_must_have, min_value = excluded.min_value, position = excluded.position
            RETURNING upc, must_have AS "mustHave", status, previous_status AS "previousStatus", previous_must_have AS "previousMustHave",
              min_value::float8 AS "minValue", position`,
      )
    : [];
  return { changed: gone.length > 0 || changed.length > 0, written };
}

/** A line as `writeCompositionChanges` wrote it (what is stored, `minValue` rounded to its column's scale). */
export type WrittenLine = CompositionLineRow & { upc: string; position: number };

/**
 * The lines of `after` as stored once `writeCompositionChanges(before = stored, after)` has run: those it upserted as it
 * returned them, the others as they were read before.
 */
export function linesAsStored(after: readonly CompositionLine[], stored: readonly StoredLineState[], written: readonly WrittenLine[]): WrittenLine[] {
  const writtenByUpc = new Map(written.map((l) => [l.upc, l]));
  const storedByUpc = new Map(stored.map((l) => [l.upc, l]));
  return after.map((l) => {
    const w = writtenByUpc.get(l.upc);
    if (w) return w;
    const s = storedByUpc.get(l.upc)!;
    return { upc: s.upc, mustHave: s.mustHave, status: s.moduleCompositionStatus, previousStatus: s.previousStatus ?? null, previousMustHave: s.previousMustHave, minValue: s.minValue, position: s.position };
  });
}

/** The composition as stored, in the request's line shape (copy uses it). */
export async function readComposition(db: Queryable, moduleId: number): Promise<CompositionLine[]> {
  return (await readCompositions(db, [moduleId])).get(moduleId)!;
}

/** The lines a module sends to the planning system: not REMOVED, in order, with the SKU's SAP status. */
export async function activeLinesWithSapStatus(db: Queryable, moduleId: number) {
  return db
    .select({ upc: moduleSkus.upc, mustHave: moduleSkus.mustHave, minValue: moduleSkus.minValue, sapStatus: skus.sapStatus })
    .from(moduleSkus)
    .innerJoin(skus, eq(skus.upc, moduleSkus.upc))
    .where(and(eq(moduleSkus.moduleId, moduleId), ne(moduleSkus.status, 'REMOVED')))
    .orderBy(moduleSkus.position);
}

/** The compositions of several modules as stored, by module id (missing ids answer an empty list). */
export async function readCompositions(db: Queryable, moduleIds: readonly number[]): Promise<Map<number, CompositionLine[]>> {
  const out = new Map<number, CompositionLine[]>(moduleIds.map((id) => [id, []]));
  if (moduleIds.length === 0) return out;
  const rows = await db
    .select()
    .from(moduleSkus)
    .where(inArray(moduleSkus.moduleId, [...moduleIds]))
    .orderBy(moduleSkus.moduleId, moduleSkus.position);
  for (const r of rows) {
    out.get(r.moduleId)?.push({
      upc: r.upc,
      mustHave: r.mustHave,
      moduleCompositionStatus: r.status as CompositionLine['moduleCompositionStatus'],
      minValue: r.minValue,
      previousStatus: r.previousStatus,
    });
  }
  return out;
}

/** Brand, collection and deleted flag of these UPCs (unknown UPCs are left out). */
export async function skuScopes(db: Queryable, upcs: readonly string[]): Promise<Map<string, { brandCode: string; collection: string; deleted: boolean }>> {
  const out = new Map<string, { brandCode: string; collection: string; deleted: boolean }>();
  for (let i = 0; i < upcs.length; i += 5000) {
    const rows = await db
      .select({ upc: skus.upc, brandCode: skus.brandCode, collection: skus.collection, deleted: skus.deleted })
      .from(skus)
      .where(inArray(skus.upc, upcs.slice(i, i + 5000)));
    for (const r of rows) out.set(r.upc, { brandCode: r.brandCode, collection: r.collection, deleted: r.deleted });
  }
  return out;
}
