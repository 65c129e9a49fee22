/**
 * Bounds of the numbers a request may carry, taken from the database columns they end up in
 * (apps/server/src/db/schema.ts). A number past its column makes PostgreSQL refuse the query; the
 * schemas refuse it first, with a message people can read (docs/DECISIONS.md "Input limits").
 */
import { z } from 'zod';

/** PostgreSQL `integer` (int4), the type of `serial` ids and of counts such as `initial_size`. */
const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

/** The largest value of `numeric(precision, scale)`: 10^(precision − scale) − 10^−scale, e.g. 99,999,999.9 for (9, 1). */
function numericMax(precision: number, scale: number): number {
  return Number(`${'9'.repeat(precision - scale)}${scale > 0 ? `.${'9'.repeat(scale)}` : ''}`);
}

const between = (min: number, max: number) => `Must be between ${min} and ${max}`;
const wholeBetween = (min: number, max: number) => `Must be a whole number between ${min} and ${max}`;

/** A whole number that fits an `integer` column (optionally narrower). */
export function int4({ min = INT4_MIN, max = INT4_MAX }: { min?: number; max?: number } = {}) {
  const message = wholeBetween(min, max);
  return z.number().int(message).min(min, message).max(max, message);
}

/** The id of a `serial` row: 1 … INT4_MAX. */
export const int4Id = () => int4({ min: 1 });

/** The same id read from a path or a query string (text there): '2147483648' is refused, not sent to the database. */
export function coercedInt4Id() {
  const message = wholeBetween(1, INT4_MAX);
  return z.coerce.number().int(message).min(1, message).max(INT4_MAX, message);
}

/** A number that fits a `numeric(precision, scale)` column (optionally from `min`); finer decimals are rounded by the database. */
export function numeric(precision: number, scale: number, { min }: { min?: number } = {}) {
  const max = numericMax(precision, scale);
  const low = min ?? -max;
  return z.number().min(low, between(low, max)).max(max, between(low, max));
}
