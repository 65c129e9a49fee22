import { sql, type SQL } from 'drizzle-orm';

/**
 * `INSERT INTO table (names) SELECT * FROM unnest($1::type[], …)`: one parameter per column, whatever the row
 * count, so neither the query builder nor PostgreSQL's parser grows with the rows (the same statement on PGlite
 * and PostgreSQL). `columns[i]` holds column `names[i]`'s values, of SQL type `types[i]`. Used by the release
 * loader's staging and by the module lines' writes (docs/performance.md "Module lines written as arrays").
 */
export function unnestInsert(table: string, names: readonly string[], types: readonly string[], columns: readonly (readonly unknown[])[]): SQL {
  const arrays = sql.join(
    columns.map((values, i) => sql`${sql.param(values)}::${sql.raw(types[i]!)}[]`),
    sql`, `,
  );
  return sql`INSERT INTO ${sql.raw(table)} (${sql.raw(names.map((n) => `"${n}"`).join(', '))}) SELECT * FROM unnest(${arrays})`;
}
