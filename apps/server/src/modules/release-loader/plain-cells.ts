/**
 * The column rules of formats.ts as SQL, for the fast staging path (fast-stage.ts): for each column,
 * a condition that is true when a raw text cell is NOT plain, and the typed value of a plain cell.
 *
 * "Plain" is deliberately narrower than what parseCell accepts: no surrounding spaces, no empty quoted
 * cell, canonical spellings (MH not mh, exact enum values, a dot for decimals, lists without blanks or
 * repeats). A file with any cell that is not plain goes the careful way (parseCell, row by row), which
 * names every fault — so these conditions only have to be conservative: whatever they let through,
 * parseCell accepts with the same value (a property test holds them to it: plain-cells.test.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { BOOL_FALSE, BOOL_TRUE, LIST_SEPARATOR, sqlType, type ColumnSpec } from './formats.js';

/** The characters String.prototype.trim removes, as the inside of a regular expression bracket. */
const JS_SPACE = String.raw`\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff`;
/**
 * A character String.prototype.trim removes, by code point (cheaper than a regular expression on
 * millions of cells); every control character counts too, which only makes the test stricter.
 */
const spaceCode = (c: SQL) => sql`(${c} <= 32 OR ${c} IN (160, 5760, 8232, 8233, 8239, 8287, 12288, 65279) OR ${c} BETWEEN 8192 AND 8202)`;
const edgeSpace = (v: SQL) => sql`(${spaceCode(sql`ascii(${v})`)} OR ${spaceCode(sql`ascii(right(${v}, 1))`)})`;
const SEP = LIST_SEPARATOR === '|' ? String.raw`\|` : LIST_SEPARATOR;
/** Items without spaces, separated by single separators, none empty. */
const PLAIN_LIST = `^[^${SEP}${JS_SPACE}]+(${SEP}[^${SEP}${JS_SPACE}]+)*$`;
/** An item that appears twice. */
const REPEATED_ITEM = `(^|${SEP})([^${SEP}]+)${SEP}(.*${SEP})?\\2(${SEP}|$)`;

const literal = (text: string) => sql`${text}`;
const list = (values: Iterable<string>) =>
  sql.join(
    [...values].map((v) => literal(v)),
    sql`, `,
  );

/** True when the raw cell `v` is not plain for `spec` (it may still be valid: parseCell decides). */
export function notPlain(spec: ColumnSpec, v: SQL): SQL {
  const type = spec.type;
  const conditions: SQL[] = [];
  switch (type.kind) {
    case 'text':
      // Bytes ≥ UTF-16 units ≥ characters: never lets through a cell parseCell finds too long.
      if (type.max !== undefined) conditions.push(sql`octet_length(${v}) > ${type.max}`);
      break;
    case 'list':
      if (type.max !== undefined) conditions.push(sql`octet_length(${v}) > ${type.max}`);
      conditions.push(sql`${v} !~ ${PLAIN_LIST}`, sql`${v} ~ ${REPEATED_ITEM}`);
      break;
    case 'int':
      conditions.push(sql`CASE WHEN ${v} ~ '^-?[0-9]{1,9}$' THEN ${v}::bigint NOT BETWEEN ${type.min} AND ${type.max} ELSE true END`);
      break;
    case 'bigint':
      conditions.push(sql`CASE WHEN ${v} ~ '^[0-9]{1,15}$' THEN ${v}::bigint < 1 ELSE true END`);
      break;
    case 'decimal': {
      const whole = type.precision - type.scale;
      const pattern = type.scale > 0 ? `^[0-9]{1,${whole}}(\\.[0-9]{1,${type.scale}})?$` : `^[0-9]{1,${whole}}$`;
      conditions.push(sql`CASE WHEN ${v} ~ ${pattern} THEN ${v}::numeric < ${type.min} ELSE true END`);
      break;
    }
    case 'bool':
      conditions.push(sql`lower(${v}) NOT IN (${list([...BOOL_TRUE, ...BOOL_FALSE])})`);
      break;
    case 'date':
      // Years from 1000 on (parseCell's Date.UTC reads years below 100 as 19xx); an impossible date fails its cast.
      conditions.push(sql`${v} !~ '^[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}$'`);
      break;
    case 'enum':
      conditions.push(sql`${v} NOT IN (${list(type.values)})`);
      break;
    case 'mhel':
      conditions.push(sql`${v} NOT IN ('MH', 'EL')`);
      break;
  }
  const typed = conditions.length > 0 ? sql` OR (${v} IS NOT NULL AND (${sql.join(conditions, sql` OR `)}))` : sql``;
  return sql`(${v} = '' OR ${edgeSpace(v)}${spec.required ? sql` OR ${v} IS NULL` : sql``}${typed})`;
}

/** The staged value of a plain cell `v` (null: the column's default, or null). */
export function plainValue(spec: ColumnSpec, v: SQL): SQL {
  const type = spec.type;
  let value: SQL;
  switch (type.kind) {
    case 'int':
      value = sql`${v}::integer`;
      break;
    case 'bigint':
      value = sql`${v}::bigint`;
      break;
    case 'decimal':
      value = sql`${v}::numeric`;
      break;
    case 'bool':
      value = sql`(lower(${v}) IN (${list(BOOL_TRUE)}))`;
      break;
    case 'date':
      value = sql`${v}::date`;
      break;
    case 'mhel':
      value = sql`(${v} = 'MH')`;
      break;
    default:
      value = v;
  }
  if (spec.default === undefined) return value;
  return sql`coalesce(${value}, ${spec.default}::${sql.raw(sqlType(type))})`;
}
