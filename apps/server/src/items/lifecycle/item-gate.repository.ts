/**
 * The SQL of items' scopes and gates, for both kinds (docs/LIFECYCLE.md, "Editing states"): each row's permission scope
 * (its brand and stars zones, `ItemKind.zonesOf`) and gate (its month's state and who holds its live lock), read beside
 * the rows (the lock path, `gateColumns`) or after their row locks (the save path, `itemScopesAndGates`), one statement
 * either way (docs/performance.md "Save and module open: CPU per call").
 */
import { sql, type SQL } from 'drizzle-orm';
import { itemKeyString, type ItemKeyParts } from '@bo/shared/item-keys';
import type { ItemScope } from '@bo/shared/permissions';
import { queryRows, queryRowsNamed, type Queryable } from '../../db/client.js';
import { liveLockOwner, type LockTtl } from '../../lib/locks.repository.js';
import { MONTH_STATE_COLUMNS, monthStateJoin, type MonthState } from './months.repository.js';
import type { ItemFacts, ItemKind, LifecycleRow } from './item-kind.js';

/** Each row's permission scope, by row id: its brand and its stars zones (a kind's `zonesOf`), in one statement. */
export async function itemScopes(db: Queryable, zonesOf: ItemKind['zonesOf'], rows: readonly LifecycleRow[]): Promise<Map<number, { brand: string; zones: string[] }>> {
  if (rows.length === 0) return new Map();
  const found = await queryRows<{ id: number; zones: string[] }>(
    db,
    sql`SELECT v.id::float8 AS id, ${zonesOf(sql.raw('v.id'))} AS zones FROM unnest(${sql.param(rows.map((r) => r.id))}::bigint[]) AS v(id)`,
  );
  const zones = new Map(found.map((f) => [Number(f.id), f.zones]));
  return new Map(rows.map((r) => [r.id, { brand: r.brandCode, zones: zones.get(r.id) ?? [] }]));
}

/** The columns `gateColumns` adds to a select of item rows. */
export interface GateColumns {
  scopeZones: string[];
  gateMonth: MonthState;
  gateLockOwner: string | null;
}

/**
 * Select fields giving each row of the kind's table its stars zones, month state and live lock owner: `row` names the
 * table in SQL, whose `id`, `month_id` and key column (`keyColumn`) they read.
 */
export const gateColumns = (kind: Pick<ItemKind, 'type' | 'zonesOf'>, row: string, keyColumn: string, ttlMinutes: LockTtl) => ({
  scopeZones: sql<string[]>`${kind.zonesOf(sql.raw(`"${row}"."id"`))}`,
  gateMonth: sql<MonthState>`(SELECT row_to_json(g) FROM (SELECT ${MONTH_STATE_COLUMNS} FROM (SELECT 1) one ${monthStateJoin(sql.raw(`"${row}"."month_id"`))}) g)`,
  gateLockOwner: sql<string | null>`${liveLockOwner(kind.type, sql.raw(`"${row}"."${keyColumn}"`), sql.raw(`"${row}"."month_id"`), ttlMinutes)}`,
});

/** Rows selected with `gateColumns`, narrowed to the wanted keys: the rows, and each one's scope and gate by row id. */
export function splitGated<Row extends LifecycleRow>(
  kind: Pick<ItemKind<Row>, 'keyOf'>,
  found: readonly (Row & GateColumns)[],
  wanted: readonly ItemKeyParts[],
): { rows: Row[]; facts: Map<number, ItemFacts> } {
  const keys = new Set(wanted.map(itemKeyString));
  const rows: Row[] = [];
  const facts = new Map<number, ItemFacts>();
  for (const { scopeZones, gateMonth, gateLockOwner, ...rest } of found) {
    const row = rest as unknown as Row;
    if (!keys.has(itemKeyString(kind.keyOf(row)))) continue;
    rows.push(row);
    facts.set(row.id, { scope: { brand: row.brandCode, zones: scopeZones }, gate: { month: gateMonth, lockOwner: gateLockOwner ?? undefined } });
  }
  return { rows, facts };
}

/**
 * More select items for the statement of `itemScopesAndGates` to evaluate beside the scopes and gates, for one item:
 * `name` names their SQL text (a part of the named statement's name: one text per name), `select` the items (e.g.
 * the naming of the transaction's versions, `versionNamingColumns`, whose values are not read, and a save's read before
 * it writes, aliased). The row answered holds their values under their aliases.
 */
export interface AlsoSelect {
  name: string;
  select: SQL;
}

/** The naming of a save's versions (`versionNamingColumns`, values not read) and what else to read, as one `AlsoSelect`. */
export function alsoSelectOf(naming: SQL | undefined, read: AlsoSelect | undefined): AlsoSelect | undefined {
  if (naming && read) return { name: `named_${read.name}`, select: sql`${naming}, ${read.select}` };
  return naming ? { name: 'more', select: naming } : read;
}

/**
 * The scope and gate of each row, by row id, in one statement: read after the rows were locked, so after any wait for
 * those locks. `also`: more select items for the statement (`AlsoSelect`); their values are answered as `also` beside
 * each row's facts.
 */
export async function itemScopesAndGates<Row extends LifecycleRow>(
  db: Queryable,
  kind: Pick<ItemKind<Row>, 'type' | 'keyOf' | 'zonesOf'>,
  rows: readonly Row[],
  ttlMinutes: number,
  also?: AlsoSelect,
): Promise<Map<number, ItemFacts & { also: Record<string, unknown> }>> {
  const out = new Map<number, ItemFacts & { also: Record<string, unknown> }>();
  if (rows.length === 0) return out;
  const keys = rows.map(kind.keyOf);
  // One item (a save): its key as one row of VALUES, a named statement soon run on its generic plan (`queryRowsNamed`;
  // with `unnest` the planner guesses 100 rows and plans at every run).
  const one = rows.length === 1;
  const values = one
    ? sql`(VALUES (${rows[0]!.id}::bigint, ${keys[0]!.itemKey}::text, ${keys[0]!.monthId}::text))`
    : sql`unnest(${sql.param(rows.map((r) => r.id))}::bigint[], ${sql.param(keys.map((k) => k.itemKey))}::text[], ${sql.param(keys.map((k) => k.monthId))}::text[])`;
  const found = await queryRowsNamed<MonthState & { id: number; zones: string[]; lockOwner: string | null }>(
    db,
    one ? `${kind.type}_gates_one${also ? `_and_${also.name}` : ''}` : undefined,
    sql`SELECT v.id::float8 AS id, ${kind.zonesOf(sql.raw('v.id'))} AS zones, ${MONTH_STATE_COLUMNS},
               ${liveLockOwner(kind.type, sql.raw('v.item_key'), sql.raw('v.month_id'), ttlMinutes)} AS "lockOwner"${also ? sql`, ${also.select}` : sql``}
          FROM ${values} AS v(id, item_key, month_id)
          ${monthStateJoin(sql.raw('v.month_id'))}`,
  );
  const byId = new Map(found.map((f) => [Number(f.id), f]));
  for (const r of rows) {
    const { id: _id, zones, lockOwner, exists, open, releaseClosed, releaseId, ...rest } = byId.get(r.id)!;
    out.set(r.id, {
      scope: { brand: r.brandCode, zones } satisfies ItemScope,
      gate: { month: { exists, open, releaseClosed, releaseId }, lockOwner: lockOwner ?? undefined },
      also: rest,
    });
  }
  return out;
}
