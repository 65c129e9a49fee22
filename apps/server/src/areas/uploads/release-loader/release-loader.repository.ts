/**
 * SQL of the release loader (docs/RELEASE-FILES.md): staging tables (TEMP, ON COMMIT DROP: they live
 * in the load's one transaction), bulk inserts as `INSERT … SELECT FROM unnest($1::type[], …)` (one
 * array per column: the same statement on PGlite and PostgreSQL), the set-based checks of references,
 * the set-based merges, and the chunked reads of the export.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../../db/client.js';
import { inReplicaMode, mayUseReplicaMode } from '../../../db/replica-mode.js';
import { unnestInsert } from '../../../db/unnest-insert.js';
import { withIndexesRebuilt } from './bulk-rewrite.repository.js';
import { FORMATS, MAX_LISTED_ERRORS, sqlType, type CellValue, type FileFormat, type LoaderFileKind, type LoadType, type ReleaseFileKind } from './formats.js';
import { HEAD_COLUMNS, HEAD_TABLES, STAGE, type HeadKind } from './staging-tables.js';

const exec = (db: Queryable, query: SQL) => db.execute(query);
const ident = (name: string) => sql.raw(`"${name}"`);

function columnDefs(format: FileFormat, only?: readonly string[]) {
  const cols = only ? format.columns.filter((c) => only.includes(c.db)) : format.columns;
  return cols;
}

/** The staging tables of one load (gone at commit or rollback). */
export async function createStaging(db: Queryable): Promise<void> {
  for (const format of Object.values(FORMATS)) {
    const defs = format.columns.map((c) => `"${c.db}" ${sqlType(c.type)}`).join(', ');
    await exec(db, sql.raw(`CREATE TEMP TABLE ${STAGE[format.kind]} (row_no integer NOT NULL, ${defs}) ON COMMIT DROP`));
  }
  for (const kind of Object.keys(HEAD_TABLES) as HeadKind[]) {
    const defs = columnDefs(FORMATS[kind], HEAD_COLUMNS[kind])
      .map((c) => `"${c.db}" ${sqlType(c.type)}`)
      .join(', ');
    await exec(db, sql.raw(`CREATE TEMP TABLE ${HEAD_TABLES[kind]} (row_no integer NOT NULL, ${defs}) ON COMMIT DROP`));
  }
}

/** Writes a chunk of staged rows: `columns[0]` are the row numbers, then the format's columns in order. */
export function insertStaged(db: Queryable, kind: LoaderFileKind, columns: CellValue[][]): Promise<unknown> {
  const format = FORMATS[kind];
  return exec(db, unnestInsert(STAGE[kind], ['row_no', ...format.columns.map((c) => c.db)], ['integer', ...format.columns.map((c) => sqlType(c.type))], columns));
}

/** Writes a chunk of head rows: `columns[0]` are the row numbers, then HEAD_COLUMNS[kind] in order. */
export function insertHeads(db: Queryable, kind: HeadKind, columns: CellValue[][]): Promise<unknown> {
  const defs = HEAD_COLUMNS[kind].map((name) => FORMATS[kind].columns.find((c) => c.db === name)!);
  return exec(db, unnestInsert(HEAD_TABLES[kind], ['row_no', ...HEAD_COLUMNS[kind]], ['integer', ...defs.map((c) => sqlType(c.type))], columns));
}

export interface ReleaseRow {
  releaseId: string;
  status: string;
  months: string[];
}

export async function findRelease(db: Queryable, releaseId: string): Promise<ReleaseRow | null> {
  const rows = await queryRows<{ release_id: string; status: string; months: string[] | null }>(
    db,
    sql`SELECT r.release_id, r.status, array_agg(m.month_id ORDER BY m.year, m.month) FILTER (WHERE m.month_id IS NOT NULL) AS months
        FROM releases r LEFT JOIN months m ON m.release_id = r.release_id
        WHERE r.release_id = ${releaseId} GROUP BY r.release_id, r.status`,
  );
  const row = rows[0];
  return row ? { releaseId: row.release_id, status: row.status, months: row.months ?? [] } : null;
}

// ───────────────────────────── Checks ─────────────────────────────

/** One refused cell found by a check: the staged row number, the column's header name and why. */
export interface CheckHit {
  kind: LoaderFileKind;
  row: number;
  column: string;
  reason: string;
}

export interface Check {
  kind: LoaderFileKind;
  /** Answers row_no, col, reason. */
  query: SQL;
}

/** A reference to a code table: rows of `table` (alias x) whose `column` is not a `target`. */
function missingRef(kind: ReleaseFileKind, table: string, column: string, header: string, target: SQL, what: string): Check {
  return {
    kind,
    query: sql`SELECT x.row_no, ${header} AS col, '''' || x.${ident(column)} || ''' is not a known ' || ${what} AS reason
               FROM ${sql.raw(table)} x WHERE x.${ident(column)} IS NOT NULL AND NOT EXISTS (${target} = x.${ident(column)})`,
  };
}

const inBrands = sql`SELECT 1 FROM brands b WHERE b.brand_code`;
const inCollections = sql`SELECT 1 FROM collections c WHERE c.collection_code`;
const inChannels = sql`SELECT 1 FROM planning_channels p WHERE p.planning_channel_id`;
const inCountries = sql`SELECT 1 FROM countries c WHERE c.country_code`;
const inFamilies = sql`SELECT 1 FROM macro_families f WHERE f.macro_family`;

/** Rows whose key repeats an earlier row's (`dup` = the key columns), reported on `header`. */
function duplicates(kind: LoaderFileKind, table: string, keys: string[], header: string, what: SQL, where = sql`TRUE`): Check {
  const k = sql.raw(keys.map((c) => `x."${c}"`).join(', '));
  const present = sql.raw(keys.map((c) => `x."${c}" IS NOT NULL`).join(' AND '));
  return {
    kind,
    query: sql`SELECT row_no, ${header} AS col, what || ' repeats row ' || first_row AS reason FROM (
                 SELECT x.row_no, ${what} AS what, min(x.row_no) OVER (PARTITION BY ${k}) AS first_row FROM ${sql.raw(table)} x WHERE ${present} AND ${where}
               ) d WHERE row_no <> first_row`,
  };
}

/** A month id as the files write it: M01_2027 … M12_2027 (shared/months.ts parseMonthId's shape). */
const MONTH_ID_PATTERN = '^M(0[1-9]|1[0-2])_[0-9]{4}$';

function checksOf(releaseId: string, type: LoadType): Check[] {
  // A month the files name is created for this release by the merge (createMonths); one of another release is refused.
  const monthCheck = (kind: HeadKind): Check => ({
    kind,
    query: sql`SELECT x.row_no, 'monthId' AS col, CASE WHEN x.month_id !~ ${MONTH_ID_PATTERN} THEN '''' || x.month_id || ''' is not a month (M01_2027 … M12_2027)'
                 ELSE '''' || x.month_id || ''' is a month of ' || coalesce('release ' || mo.release_id, 'no release') || ', not of ' || ${releaseId} END AS reason
               FROM ${sql.raw(HEAD_TABLES[kind])} x LEFT JOIN months mo ON mo.month_id = x.month_id
               WHERE x.month_id IS NOT NULL AND (x.month_id !~ ${MONTH_ID_PATTERN} OR mo.release_id IS DISTINCT FROM ${releaseId} AND mo.month_id IS NOT NULL)`,
  });
  const clusterRef = (lineKind: string, target: SQL, what: string): Check => ({
    kind: 'cluster',
    query: sql`SELECT x.row_no, 'value' AS col, '''' || x.value || ''' is not a known ' || ${what} AS reason
               FROM rl_cluster x WHERE x.kind = ${lineKind} AND x.value IS NOT NULL AND NOT EXISTS (${target} = x.value)`,
  });
  const moduleHere =
    type === 'massive'
      ? sql`SELECT 1 FROM rl_module_head h WHERE h.month_id = x.month_id AND h.module_name`
      : sql`SELECT 1 FROM rl_module_head h WHERE h.month_id = x.month_id AND h.module_name = x.value
            UNION ALL SELECT 1 FROM modules md WHERE md.month_id = x.month_id AND md.deletion_status IS NULL AND md.module_name`;
  return [
    // Sku Registry
    duplicates('registry', 'rl_registry', ['upc'], 'upc', sql`'this UPC'`),
    duplicates('registry', 'rl_registry', ['sku_id'], 'skuId', sql`'this skuId'`),
    {
      kind: 'registry',
      query: sql`SELECT x.row_no, 'skuId' AS col, x.sku_id || ' is the skuId of UPC ' || s.upc || ' in the database' AS reason
                 FROM rl_registry x JOIN skus s ON s.sku_id = x.sku_id AND s.upc <> x.upc`,
    },
    missingRef('registry', 'rl_registry', 'brand_code', 'brandCode', inBrands, 'brand'),
    missingRef('registry', 'rl_registry', 'collection', 'collection', inCollections, 'collection'),
    missingRef('registry', 'rl_registry', 'planning_channel_id', 'planningChannelId', inChannels, 'planning channel'),
    // Customer Segmentation
    duplicates('segment', 'rl_segment', ['store_jda'], 'storeJda', sql`'this store'`),
    duplicates('segment', 'rl_segment', ['codice_store_sap'], 'codiceStoreSap', sql`'this SAP code'`),
    {
      kind: 'segment',
      query: sql`SELECT x.row_no, 'codiceStoreSap' AS col, '''' || x.codice_store_sap || ''' is the SAP code of store ' || s.store_jda || ' in the database' AS reason
                 FROM rl_segment x JOIN stores s ON s.codice_store_sap = x.codice_store_sap AND s.store_jda <> x.store_jda`,
    },
    missingRef('segment', 'rl_segment', 'country_code', 'countryCode', inCountries, 'country'),
    missingRef('segment', 'rl_segment', 'planning_channel_id', 'planningChannelId', inChannels, 'planning channel'),
    missingRef('segment', 'rl_segment', 'customer_country', 'starsCustomerCountry', inCountries, 'country'),
    missingRef('segment', 'rl_segment', 'customer_planning_channel', 'starsCustomerPlanningChannel', inChannels, 'planning channel'),
    // Module Composition: the item fields once per module-month (the reader made sure every row agrees with the first)
    monthCheck('module'),
    missingRef('module', 'rl_module_head', 'brand_code', 'brandCode', inBrands, 'brand'),
    missingRef('module', 'rl_module_head', 'collection', 'collection', inCollections, 'collection'),
    missingRef('module', 'rl_module_head', 'macro_family', 'macroFamily', inFamilies, 'macro family'),
    missingRef('module', 'rl_module_head', 'planning_channel_id', 'planningChannelId', inChannels, 'planning channel'),
    {
      kind: 'module',
      query: sql`SELECT x.row_no, 'starsZones' AS col, '''' || z.code || ''' is not a known stars zone' AS reason
                 FROM rl_module_head x CROSS JOIN LATERAL unnest(string_to_array(x.stars_zones, '|')) AS z(code)
                 WHERE x.stars_zones IS NOT NULL AND x.stars_zones <> '' AND NOT EXISTS (SELECT 1 FROM stars_zones s WHERE s.zone_code = z.code)`,
    },
    {
      kind: 'module',
      query: sql`SELECT x.row_no, 'upc' AS col, '''' || x.upc || ''' is neither in the Sku Registry nor in the database' AS reason
                 FROM rl_module x WHERE x.upc IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM rl_registry r WHERE r.upc = x.upc) AND NOT EXISTS (SELECT 1 FROM skus s WHERE s.upc = x.upc)`,
    },
    // Cluster Composition
    monthCheck('cluster'),
    missingRef('cluster', 'rl_cluster_head', 'brand_code', 'brandCode', inBrands, 'brand'),
    missingRef('cluster', 'rl_cluster_head', 'collection', 'collection', inCollections, 'collection'),
    missingRef('cluster', 'rl_cluster_head', 'planning_channel_id', 'planningChannelId', inChannels, 'planning channel'),
    clusterRef('COUNTRY', inCountries, 'country'),
    clusterRef('ZONE', sql`SELECT 1 FROM stars_zones s WHERE s.zone_code`, 'stars zone'),
    clusterRef('LIA', sql`SELECT 1 FROM lias l WHERE l.lia_code`, 'LIA'),
    clusterRef('CLASSIFICATION', sql`SELECT 1 FROM client_classifications c WHERE c.classification_label`, 'client classification'),
    {
      kind: 'cluster',
      query: sql`SELECT x.row_no, 'value' AS col, 'store ''' || x.value || ''' is neither in the Customer Segmentation nor in the database' AS reason
                 FROM rl_cluster x WHERE x.kind = 'STORE' AND x.value IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM rl_segment s WHERE s.store_jda = x.value) AND NOT EXISTS (SELECT 1 FROM stores s WHERE s.store_jda = x.value)`,
    },
    {
      kind: 'cluster',
      query: sql`SELECT x.row_no, 'value' AS col, 'module ''' || x.value || ''' of ' || x.month_id || ${
        type === 'massive' ? ' is not in the Module Composition' : ' is neither in the Module Composition nor live in the database'
      } AS reason FROM rl_cluster x WHERE x.kind = 'MODULE' AND x.value IS NOT NULL AND NOT EXISTS (${moduleHere} = x.value)`,
    },
    duplicates('cluster', 'rl_cluster', ['cluster_id', 'month_id', 'kind', 'value'], 'value', sql`'this ' || lower(x.kind) || ' of the cluster'`, sql`x.kind <> 'CLUSTER'`),
  ];
}

/**
 * A module's SKU on two rows. Not among `checksOf`: on a load the checks pass, the primary key of
 * module_skus finds a repeat while the lines are written (one pass less over a million rows); the load
 * then runs this check to name the rows (release-loader.service.ts), as it does when another check refused.
 */
export const MODULE_REPEATS: Check = duplicates('module', 'rl_module', ['module_name', 'month_id', 'upc'], 'upc', sql`'this UPC of the module'`, sql`x.upc IS NOT NULL`);
/** The primary key that finds a module's SKU written twice. */
export const MODULE_LINES_KEY = 'module_skus_module_id_upc_pk';

/** Marks where the merge starts in the load's transaction (a savepoint), so that a merge refused by MODULE_LINES_KEY can be undone alone. */
export async function startMerge(tx: Queryable): Promise<void> {
  await tx.execute(sql`SAVEPOINT rl_merge`);
}

/** Undoes everything the merge wrote since `startMerge`; the staged files stay, for the checks. */
export async function rollbackToMergeStart(tx: Queryable): Promise<void> {
  await tx.execute(sql`ROLLBACK TO SAVEPOINT rl_merge`);
}

/** Every check's first hits (by row) and the number of all its hits (`checks`: those of checksOf). */
export async function runChecks(db: Queryable, releaseId: string, type: LoadType, checks: readonly Check[] = checksOf(releaseId, type)): Promise<{ hits: CheckHit[]; total: number }> {
  const hits: CheckHit[] = [];
  let total = 0;
  for (const check of checks) {
    const rows = await queryRows<{ row_no: number; col: string; reason: string; total: string | number }>(
      db,
      sql`SELECT row_no, col, reason, count(*) OVER () AS total FROM (${check.query}) c ORDER BY row_no LIMIT ${MAX_LISTED_ERRORS}`,
    );
    if (rows.length === 0) continue;
    total += Number(rows[0]!.total);
    for (const r of rows) hits.push({ kind: check.kind, row: Number(r.row_no), column: r.col, reason: r.reason });
  }
  return { hits, total };
}

// ───────────────────────────── Merges ─────────────────────────────

export interface MergeCounts {
  skus: number;
  stores: number;
  starsCustomers: number;
  segmentations: number;
  modules: number;
  moduleLines: number;
  clusters: number;
  clusterLines: number;
  removedModules: number;
  removedClusters: number;
  /** Of the master data written (inserted or written again), the new rows. */
  created: { skus: number; stores: number; starsCustomers: number; segmentations: number };
  /** How the module lines' foreign keys were checked. */
  lineKeys: LineKeyChecks;
}

/**
 * How the module lines' foreign keys were checked: `rebuilt` (the bulk rewrite, keys added back whole), `once` (set-wise,
 * `lineKeysVouched`), `per row` (PostgreSQL's own trigger for each written line).
 */
export type LineKeyChecks = 'rebuilt' | 'once' | 'per row';

/** The rows a statement wrote (pg's rowCount, PGlite's affectedRows). */
export const affected = (result: unknown) => Number((result as { rowCount?: number | null; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0);

/** Runs an `INSERT … ON CONFLICT DO UPDATE` and counts the rows it wrote and, of them, the new ones (xmax = 0: not an update). */
async function written(db: Queryable, insert: SQL): Promise<{ rows: number; created: number }> {
  const [row] = await queryRows<{ rows: string | number; created: string | number }>(
    db,
    sql`WITH w AS (${insert} RETURNING (xmax = 0) AS created) SELECT count(*) AS rows, count(*) FILTER (WHERE created) AS created FROM w`,
  );
  return { rows: Number(row?.rows ?? 0), created: Number(row?.created ?? 0) };
}

/** Master data: segmentations, stars customers, stores and SKUs are inserted or updated, never deleted. */
export async function mergeMasterData(db: Queryable): Promise<Pick<MergeCounts, 'skus' | 'stores' | 'starsCustomers' | 'segmentations' | 'created'>> {
  const segmentations = await written(
      db,
      sql`INSERT INTO customer_segmentations (segmentation_code, label)
          SELECT DISTINCT ON (customer_segmentation) customer_segmentation, segmentation_label FROM rl_segment ORDER BY customer_segmentation, row_no
          ON CONFLICT (segmentation_code) DO UPDATE SET label = EXCLUDED.label`,
    );
  const starsCustomers = await written(
      db,
      sql`INSERT INTO stars_customers (customer_code, name, country_code, planning_channel_id, distribution_channel)
          SELECT DISTINCT ON (stars_customer) stars_customer, customer_name, customer_country, customer_planning_channel, distribution_channel
          FROM rl_segment ORDER BY stars_customer, row_no
          ON CONFLICT (customer_code) DO UPDATE SET name = EXCLUDED.name, country_code = EXCLUDED.country_code,
            planning_channel_id = EXCLUDED.planning_channel_id, distribution_channel = EXCLUDED.distribution_channel`,
    );
  const stores = await written(
      db,
      sql`INSERT INTO stores (store_jda, codice_store_sap, name, stars_customer, country_code, customer_segmentation, planning_channel_id)
          SELECT store_jda, codice_store_sap, store_name, stars_customer, country_code, customer_segmentation, planning_channel_id FROM rl_segment
          ON CONFLICT (store_jda) DO UPDATE SET codice_store_sap = EXCLUDED.codice_store_sap, name = EXCLUDED.name,
            stars_customer = EXCLUDED.stars_customer, country_code = EXCLUDED.country_code,
            customer_segmentation = EXCLUDED.customer_segmentation, planning_channel_id = EXCLUDED.planning_channel_id`,
    );
  const cols = FORMATS.registry.columns.map((c) => c.db);
  const list = sql.raw(cols.map((c) => `"${c}"`).join(', '));
  const updates = sql.raw(
    cols
      .filter((c) => c !== 'upc')
      .map((c) => `"${c}" = EXCLUDED."${c}"`)
      .join(', '),
  );
  const skus = await written(db, sql`INSERT INTO skus (${list}) SELECT ${list} FROM rl_registry ON CONFLICT (upc) DO UPDATE SET ${updates}`);
  return {
    skus: skus.rows,
    stores: stores.rows,
    starsCustomers: starsCustomers.rows,
    segmentations: segmentations.rows,
    created: { skus: skus.created, stores: stores.created, starsCustomers: starsCustomers.created, segmentations: segmentations.created },
  };
}

/** From this many module lines on, a load may rebuild module_skus's keys and indexes rather than maintain them row by row. */
export const BULK_MIN_LINES = 100_000;

/**
 * Whether the module lines are written as a bulk rewrite (bulk-rewrite.ts): at least `minLines` of them,
 * at least as many as the table holds now (the planner's estimate, `reltuples`), so that rebuilding
 * the indexes over the whole table costs about what maintaining them row by row would, and **no module but
 * those of the files** in the database (after `massive` removed the release's others). The rewrite locks
 * module_skus, and through the dropped foreign keys `modules` and `skus`, ACCESS EXCLUSIVE until the load
 * commits: with any other module in the database, every search, module page and save of the planners would
 * wait for the whole load (docs/RELEASE-FILES.md "Load", docs/performance.md "A release load during the
 * morning"). So it is a first load's way (a new installation, a database holding only this release); any
 * other load writes its lines row by row, under no lock another planner's statement waits on.
 */
async function bulkLines(db: Queryable, minLines: number): Promise<{ bulk: boolean; lines: number }> {
  const [row] = await queryRows<{ lines: string | number; others: string | number }>(
    db,
    sql`SELECT (SELECT count(*) FROM rl_module WHERE upc IS NOT NULL) AS lines,
          greatest((SELECT reltuples FROM pg_class WHERE oid = 'module_skus'::regclass), 0)::bigint AS others`,
  );
  const lines = Number(row?.lines ?? 0);
  if (lines < minLines || lines < Number(row?.others ?? 0)) return { bulk: false, lines };
  const [other] = await queryRows<{ found: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM modules m WHERE NOT EXISTS (SELECT 1 FROM rl_module_head h WHERE h.module_name = m.module_name AND h.month_id = m.month_id)) AS found`,
  );
  return { bulk: other?.found === false, lines };
}

/**
 * A module's SKU on two rows of the files whose stored line is already as they say: the lines' primary key never
 * sees that repeat (neither row is written), so the merge counts the lines instead (writeChangedLines).
 */
export class RepeatedModuleLine extends Error {
  constructor() {
    super('a module line of the files is on two rows');
  }
}

/** Inserts the files' module lines of the written modules (`tail`: an order, a conflict clause); the rows it wrote. */
async function insertStagedLines(db: Queryable, tail: SQL = sql``): Promise<number> {
  return affected(
    await exec(
      db,
      sql`INSERT INTO module_skus (module_id, upc, must_have, status, previous_status, previous_must_have, min_value, position)
          SELECT i.id, s.upc, s.must_have, s.status, s.previous_status, s.previous_must_have, s.min_value, s.position
          FROM rl_module s JOIN rl_module_id i ON i.module_name = s.module_name AND i.month_id = s.month_id WHERE s.upc IS NOT NULL ${tail}`,
    ),
  );
}

/**
 * The written modules' lines made what the files say, writing only what differs (a load row by row): the stored
 * lines that no row of the files repeats exactly are deleted, then the files' rows are inserted, those whose line
 * is still there skipped (`ON CONFLICT DO NOTHING` on the lines' key). The lines end as a delete of them all and an
 * insert of the files' would leave them, but a reload of the same files writes no line, and a reload that changes
 * a tenth writes a tenth (each written line costs its indexes, triggers and WAL: docs/performance.md "A reload
 * writes only the lines that changed"). Every row of the files is either a kept line or an inserted one, so the
 * kept and inserted lines add up to the files' rows, or a row is repeated: `RepeatedModuleLine`, which the load
 * names as the lines' key does (release-loader.service.ts). Returns the files' lines.
 */
async function writeChangedLines(db: Queryable, fileLines: number): Promise<number> {
  const [before] = await queryRows<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM module_skus s JOIN rl_module_id i ON s.module_id = i.id`);
  const deleted = affected(
    await exec(
      db,
      sql`DELETE FROM module_skus s USING rl_module_id i WHERE s.module_id = i.id
          AND NOT EXISTS (SELECT 1 FROM rl_module r WHERE r.module_name = i.module_name AND r.month_id = i.month_id AND r.upc = s.upc
            AND r.must_have IS NOT DISTINCT FROM s.must_have AND r.status IS NOT DISTINCT FROM s.status
            AND r.previous_status IS NOT DISTINCT FROM s.previous_status AND r.previous_must_have IS NOT DISTINCT FROM s.previous_must_have
            AND r.min_value::numeric(9, 1) IS NOT DISTINCT FROM s.min_value AND r.position IS NOT DISTINCT FROM s.position)`,
    ),
  );
  const kept = Number(before?.n ?? 0) - deleted;
  // In key order: the primary key's index grows at its right edge. With no line kept (a first load) the plain insert,
  // whose key finds a repeat itself, and no speculative insertion per row.
  const inserted = await insertStagedLines(db, sql`ORDER BY i.id, s.upc ${kept > 0 ? sql`ON CONFLICT ON CONSTRAINT ${sql.raw(MODULE_LINES_KEY)} DO NOTHING` : sql``}`);
  if (kept + inserted !== fileLines) throw new RepeatedModuleLine();
  return fileLines;
}

/**
 * Whether the module lines may be written with their two foreign keys vouched for once, set-wise, instead of checked by
 * PostgreSQL line by line (a trigger per key and line: an index probe and a row lock each, more than half of writing a
 * million lines, docs/performance.md "The lines' keys checked once"). It needs:
 * - replica mode allowed to this session (db/replica-mode.ts), in which the keys' triggers are left out;
 * - every trigger of module_skus `ENABLE ALWAYS`, so that replica mode leaves out nothing else (the line counts of 0010
 *   still run);
 * - every SKU the files' lines name found, and locked `FOR KEY SHARE` as each line's key check would lock it, so that
 *   nobody deletes one before the load commits. The modules need no such step: the load wrote each written module's
 *   row in this transaction (mergeItems), which holds it locked until the commit.
 * A SKU not found (the checks refuse that first) leaves the lines to PostgreSQL's own checks, as before.
 */
async function lineKeysVouched(db: Queryable): Promise<boolean> {
  if (!(await mayUseReplicaMode(db))) return false;
  const [row] = await queryRows<{ always: boolean; missing: string | number }>(
    db,
    sql`WITH wanted AS (SELECT DISTINCT upc FROM rl_module WHERE upc IS NOT NULL),
             held AS (SELECT s.upc FROM skus s WHERE s.upc IN (SELECT w.upc FROM wanted w) FOR KEY SHARE)
        SELECT NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = 'module_skus'::regclass AND NOT t.tgisinternal AND t.tgenabled <> 'A') AS always,
               (SELECT count(*) FROM wanted) - (SELECT count(*) FROM held) AS missing`,
  );
  return row?.always === true && Number(row.missing) === 0;
}

/** module_skus's count triggers (migration 0010), turned off and back on (ALWAYS, as 0010 left them) by a bulk rewrite. */
const COUNT_TRIGGERS = ['module_skus_counted_insert', 'module_skus_counted_update', 'module_skus_counted_delete'];

/**
 * Runs `write` (a bulk rewrite of module lines, which holds module_skus locked) with the line count triggers off: the
 * module rows were written with their counts (mergeItems). Adjusting 20,000 modules by a million-row transition table
 * cost ~2 s of a 1M-line load. A rollback puts the triggers back.
 */
function withoutLineCounts<T>(db: Queryable, write: () => Promise<T>): () => Promise<T> {
  return async () => {
    await exec(db, sql.raw(`ALTER TABLE module_skus ${COUNT_TRIGGERS.map((t) => `DISABLE TRIGGER ${t}`).join(', ')}`));
    const result = await write();
    await exec(db, sql.raw(`ALTER TABLE module_skus ${COUNT_TRIGGERS.map((t) => `ENABLE ALWAYS TRIGGER ${t}`).join(', ')}`));
    return result;
  };
}

/**
 * Modules and clusters: each item of the files is written as the files say (its fields, and its
 * composition replaced); with `massive`, the items of the release's months that the files do not
 * name are removed (their compositions with them). Written items become WIP, live, and one version on.
 */
export async function mergeItems(
  db: Queryable,
  releaseId: string,
  type: LoadType,
  username: string,
  onStep: (step: number, of: number) => Promise<void>,
  bulkMinLines = BULK_MIN_LINES,
  rowKeyChecks = false,
): Promise<Omit<MergeCounts, 'skus' | 'stores' | 'starsCustomers' | 'segmentations' | 'created'>> {
  const steps = 8;
  let removedModules = 0;
  let removedClusters = 0;
  if (type === 'massive') {
    removedClusters = affected(
      await exec(
        db,
        sql`DELETE FROM clusters c USING months mo WHERE mo.month_id = c.month_id AND mo.release_id = ${releaseId}
            AND NOT EXISTS (SELECT 1 FROM rl_cluster_head h WHERE h.cluster_id = c.cluster_id AND h.month_id = c.month_id)`,
      ),
    );
    removedModules = affected(
      await exec(
        db,
        sql`DELETE FROM modules m USING months mo WHERE mo.month_id = m.month_id AND mo.release_id = ${releaseId}
            AND NOT EXISTS (SELECT 1 FROM rl_module_head h WHERE h.module_name = m.module_name AND h.month_id = m.month_id)`,
      ),
    );
  }
  await onStep(1, steps);
  const { bulk, lines } = await bulkLines(db, bulkMinLines);
  // In bulk the lines are written with the count triggers off (withoutLineCounts): each module row comes with the
  // counts of its staged lines instead — the rule of migration 0010 (lines not in the bin, by class). Setting them
  // later by an UPDATE would cost more than the triggers: PostgreSQL checks every foreign key of a row again when a
  // row inserted by the same transaction is updated (5 keys × 20,000 modules).
  const counted = bulk
    ? {
        columns: sql`, mh_count, el_count`,
        values: sql`, COALESCE(n.mh, 0), COALESCE(n.el, 0)`,
        from: sql`LEFT JOIN (SELECT module_name, month_id, count(*) FILTER (WHERE must_have)::integer AS mh, count(*) FILTER (WHERE NOT must_have)::integer AS el
                  FROM rl_module WHERE upc IS NOT NULL AND status <> 'REMOVED' GROUP BY module_name, month_id) n USING (module_name, month_id)`,
        update: sql`, mh_count = EXCLUDED.mh_count, el_count = EXCLUDED.el_count`,
      }
    : { columns: sql``, values: sql``, from: sql``, update: sql`` };
  const modules = affected(
    await exec(
      db,
      sql`INSERT INTO modules (module_name, month_id, module_label, module_description, macro_family, brand_code, collection,
            planning_channel_id, new_module, initial_size, status, created_by, updated_by${counted.columns})
          SELECT module_name, month_id, module_label, module_description, macro_family, brand_code, collection,
            planning_channel_id, new_module, initial_size, 'WIP', ${username}, ${username}${counted.values} FROM rl_module_head ${counted.from}
          ON CONFLICT (module_name, month_id) DO UPDATE SET module_label = EXCLUDED.module_label,
            module_description = EXCLUDED.module_description, macro_family = EXCLUDED.macro_family, brand_code = EXCLUDED.brand_code,
            collection = EXCLUDED.collection, planning_channel_id = EXCLUDED.planning_channel_id, new_module = EXCLUDED.new_module,
            initial_size = EXCLUDED.initial_size, status = 'WIP',
            created_after_delete = modules.created_after_delete OR modules.deletion_status IS NOT NULL, deletion_status = NULL,
            version = modules.version + 1, updated_at = now(), updated_by = EXCLUDED.updated_by${counted.update}`,
    ),
  );
  // The written modules' ids, once (the compositions join on them).
  await exec(
    db,
    sql`CREATE TEMP TABLE rl_module_id ON COMMIT DROP AS
        SELECT m.id, m.module_name, m.month_id FROM modules m JOIN rl_module_head h ON h.module_name = m.module_name AND h.month_id = m.month_id`,
  );
  await exec(db, sql`DELETE FROM module_stars_zones z USING rl_module_id i WHERE z.module_id = i.id`);
  await exec(
    db,
    sql`INSERT INTO module_stars_zones (module_id, stars_zone)
        SELECT i.id, z.code FROM rl_module_head h JOIN rl_module_id i ON i.module_name = h.module_name AND i.month_id = h.month_id
        CROSS JOIN LATERAL unnest(string_to_array(h.stars_zones, '|')) AS z(code) WHERE h.stars_zones <> ''`,
  );
  await onStep(2, steps);
  // In bulk, every line of the written modules is deleted and the files' are inserted, the keys and indexes dropped
  // meanwhile (the build sorts); row by row, only the lines that differ are written.
  const rewriteLines = async () => {
    await exec(db, sql`DELETE FROM module_skus s USING rl_module_id i WHERE s.module_id = i.id`);
    return insertStagedLines(db);
  };
  const lineKeys: LineKeyChecks = bulk ? 'rebuilt' : !rowKeyChecks && (await lineKeysVouched(db)) ? 'once' : 'per row';
  const moduleLines =
    lineKeys === 'rebuilt'
      ? await withIndexesRebuilt(db, 'module_skus', withoutLineCounts(db, rewriteLines))
      : lineKeys === 'once'
        ? await inReplicaMode(db, () => writeChangedLines(db, lines))
        : await writeChangedLines(db, lines);
  await onStep(5, steps);
  const clusters = affected(
    await exec(
      db,
      sql`INSERT INTO clusters (cluster_id, month_id, cluster_label, cluster_description, brand_code, collection, planning_channel_id,
            range_facing, release_id, status, created_by, updated_by)
          SELECT cluster_id, month_id, cluster_label, cluster_description, brand_code, collection, planning_channel_id,
            range_facing, ${releaseId}, 'WIP', ${username}, ${username} FROM rl_cluster_head
          ON CONFLICT (cluster_id, month_id) DO UPDATE SET cluster_label = EXCLUDED.cluster_label,
            cluster_description = EXCLUDED.cluster_description, brand_code = EXCLUDED.brand_code, collection = EXCLUDED.collection,
            planning_channel_id = EXCLUDED.planning_channel_id, range_facing = EXCLUDED.range_facing, release_id = EXCLUDED.release_id,
            status = 'WIP', created_after_delete = clusters.created_after_delete OR clusters.deletion_status IS NOT NULL,
            deletion_status = NULL, version = clusters.version + 1, updated_at = now(), updated_by = EXCLUDED.updated_by`,
    ),
  );
  await exec(
    db,
    sql`CREATE TEMP TABLE rl_cluster_pk ON COMMIT DROP AS
        SELECT c.id, c.cluster_id, c.month_id FROM clusters c JOIN rl_cluster_head h ON h.cluster_id = c.cluster_id AND h.month_id = c.month_id`,
  );
  await onStep(6, steps);
  const children: [string, string, string, SQL][] = [
    ['cluster_countries', 'country_code', 'COUNTRY', sql`x.value`],
    ['cluster_stars_zones', 'stars_zone', 'ZONE', sql`x.value`],
    ['cluster_lias', 'lia_code', 'LIA', sql`x.value`],
    ['cluster_stores', 'store_jda', 'STORE', sql`x.value`],
    [
      'cluster_classifications',
      'classification_id',
      'CLASSIFICATION',
      sql`(SELECT cc.classification_id FROM client_classifications cc WHERE cc.classification_label = x.value)`,
    ],
  ];
  let clusterLines = 0;
  for (const [table, column, kind, value] of children) {
    await exec(db, sql`DELETE FROM ${ident(table)} t USING rl_cluster_pk p WHERE t.cluster_pk = p.id`);
    clusterLines += affected(
      await exec(
        db,
        sql`INSERT INTO ${ident(table)} (cluster_pk, ${ident(column)})
            SELECT p.id, ${value} FROM rl_cluster x JOIN rl_cluster_pk p ON p.cluster_id = x.cluster_id AND p.month_id = x.month_id
            WHERE x.kind = ${kind}`,
      ),
    );
  }
  await exec(db, sql`DELETE FROM cluster_modules t USING rl_cluster_pk p WHERE t.cluster_pk = p.id`);
  clusterLines += affected(
    await exec(
      db,
      sql`INSERT INTO cluster_modules (cluster_pk, month_id, module_name, status)
          SELECT p.id, p.month_id, x.value, coalesce(x.module_status, 'ADDED') FROM rl_cluster x
          JOIN rl_cluster_pk p ON p.cluster_id = x.cluster_id AND p.month_id = x.month_id WHERE x.kind = 'MODULE'`,
    ),
  );
  await onStep(8, steps);
  return { modules, moduleLines, clusters, clusterLines, removedModules, removedClusters, lineKeys };
}

// ───────────────────────────── Export ─────────────────────────────

/** Rows of a page of an export, with the column names of the format (db names) plus the key to continue from. */
export type ExportRow = Record<string, unknown>;

/** Master data, in key order, `limit` rows after `after`. */
export function registryPage(db: Queryable, after: string, limit: number): Promise<ExportRow[]> {
  const list = sql.raw(FORMATS.registry.columns.map((c) => `"${c.db}"`).join(', '));
  return queryRows<ExportRow>(db, sql`SELECT ${list} FROM skus WHERE upc > ${after} ORDER BY upc LIMIT ${limit}`);
}

export function segmentPage(db: Queryable, after: string, limit: number): Promise<ExportRow[]> {
  return queryRows<ExportRow>(
    db,
    sql`SELECT s.store_jda, s.codice_store_sap, s.name AS store_name, s.country_code, s.customer_segmentation, g.label AS segmentation_label,
          s.planning_channel_id, s.stars_customer, c.name AS customer_name, c.country_code AS customer_country,
          c.planning_channel_id AS customer_planning_channel, c.distribution_channel
        FROM stores s JOIN stars_customers c ON c.customer_code = s.stars_customer
        JOIN customer_segmentations g ON g.segmentation_code = s.customer_segmentation
        WHERE s.store_jda > ${after} ORDER BY s.store_jda LIMIT ${limit}`,
  );
}

export interface ItemKey {
  name: string;
  monthId: string;
}

/** The next live items of the release's months (by name, then month), after `after`. */
export async function itemPage(db: Queryable, kind: HeadKind, releaseId: string, after: ItemKey | null, limit: number): Promise<(ItemKey & { id: number })[]> {
  const [table, key] = kind === 'module' ? ['modules', 'module_name'] : ['clusters', 'cluster_id'];
  const from = after ? sql`AND (i.${ident(key)}, i.month_id) > (${after.name}, ${after.monthId})` : sql``;
  const rows = await queryRows<{ id: number | string; name: string; month_id: string }>(
    db,
    sql`SELECT i.id, i.${ident(key)} AS name, i.month_id FROM ${ident(table)} i JOIN months mo ON mo.month_id = i.month_id
        WHERE mo.release_id = ${releaseId} AND i.deletion_status IS NULL ${from}
        ORDER BY i.${ident(key)}, i.month_id LIMIT ${limit}`,
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name, monthId: r.month_id }));
}

/** The composition lines of these modules (one row without upc for a module without lines), in file order. */
export function moduleLines(db: Queryable, ids: number[]): Promise<ExportRow[]> {
  return queryRows<ExportRow>(
    db,
    sql`SELECT m.module_name, m.month_id, m.module_label, m.module_description, m.macro_family, m.brand_code, m.collection,
          m.planning_channel_id, m.new_module, m.initial_size,
          coalesce((SELECT string_agg(z.stars_zone, '|' ORDER BY z.stars_zone) FROM module_stars_zones z WHERE z.module_id = m.id), '') AS stars_zones,
          s.upc, s.must_have, s.status, s.previous_status, s.previous_must_have, s.min_value, s.position
        FROM modules m LEFT JOIN module_skus s ON s.module_id = m.id
        WHERE m.id = ANY(${sql.param(ids)}::bigint[])
        ORDER BY m.module_name, m.month_id, s.position, s.upc`,
  );
}

/**
 * The lines of these clusters: a CLUSTER row, then its countries, zones, LIAs, classifications (by
 * label), stores and modules. A module line whose module is not live in the cluster's month is left
 * out (a file could not load it back).
 */
export function clusterLines(db: Queryable, ids: number[]): Promise<ExportRow[]> {
  return queryRows<ExportRow>(
    db,
    sql`WITH c AS (SELECT * FROM clusters WHERE id = ANY(${sql.param(ids)}::bigint[])),
        lines AS (
          SELECT c.id, 0 AS k, 'CLUSTER' AS kind, NULL::text AS value, NULL::text AS module_status FROM c
          UNION ALL SELECT x.cluster_pk, 1, 'COUNTRY', x.country_code, NULL FROM cluster_countries x JOIN c ON c.id = x.cluster_pk
          UNION ALL SELECT x.cluster_pk, 2, 'ZONE', x.stars_zone, NULL FROM cluster_stars_zones x JOIN c ON c.id = x.cluster_pk
          UNION ALL SELECT x.cluster_pk, 3, 'LIA', x.lia_code, NULL FROM cluster_lias x JOIN c ON c.id = x.cluster_pk
          UNION ALL SELECT x.cluster_pk, 4, 'CLASSIFICATION', cc.classification_label, NULL FROM cluster_classifications x
            JOIN c ON c.id = x.cluster_pk JOIN client_classifications cc ON cc.classification_id = x.classification_id
          UNION ALL SELECT x.cluster_pk, 5, 'STORE', x.store_jda, NULL FROM cluster_stores x JOIN c ON c.id = x.cluster_pk
          UNION ALL SELECT x.cluster_pk, 6, 'MODULE', x.module_name, x.status FROM cluster_modules x JOIN c ON c.id = x.cluster_pk
            WHERE EXISTS (SELECT 1 FROM modules m WHERE m.module_name = x.module_name AND m.month_id = c.month_id AND m.deletion_status IS NULL)
        )
        SELECT c.cluster_id, c.month_id, c.cluster_label, c.cluster_description, c.brand_code, c.collection, c.planning_channel_id,
          c.range_facing, l.kind, l.value, l.module_status
        FROM lines l JOIN c ON c.id = l.id ORDER BY c.cluster_id, c.month_id, l.k, l.value`,
  );
}
