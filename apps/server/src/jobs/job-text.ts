/**
 * What a job records as its response when it fails, and what any job text goes through before it is
 * written (docs/operations.md "Jobs that cannot record their failure"). A database error's text carries the
 * statement and its parameters (Drizzle writes `Failed query: … params: …`), so it is never recorded: the
 * job records a generic message with the SQLSTATE, and the detail goes to the server log only.
 */
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { errorChain, sqlStateOf } from '../lib/error-chain.js';

/** The texts a job records as its response when it fails. */
export const JOB_TEXTS = {
  databaseError: (code: string | null) => `The job failed (database error${code ? ` ${code}` : ''}).`,
  /** A step of a job that goes on (its line reads `Unexpected error: …`). */
  stepDatabaseError: (code: string | null) => `a database error${code ? ` (${code})` : ''}, see the server log`,
  failureNotRecorded: 'The job failed, and its error could not be recorded (see the server log).',
} as const;

/** The longest text a job records, in characters (a refusal of the release loader lists up to 1,000 lines). */
export const JOB_TEXT_MAX_CHARS = 1_000_000;

/** NUL (PostgreSQL's text cannot hold it) and UTF-16 surrogates without their pair (not text at all). */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A text as a job may record it: without NUL or lone surrogates, at most `max` characters (cut with `…`). */
export function cleanJobText(text: string, max = JOB_TEXT_MAX_CHARS): string {
  let clean = text.replace(UNSTORABLE, '');
  if (clean.length > max) {
    clean = clean.slice(0, max - 1);
    // Not half of a surrogate pair at the cut.
    if (/[\uD800-\uDBFF]$/.test(clean)) clean = clean.slice(0, -1);
    clean += '…';
  }
  return clean;
}

/** Whether the error, or one it wraps (`cause`), comes from the database driver or Drizzle's query wrapper. */
function isDatabaseError(err: unknown): boolean {
  for (const e of errorChain(err)) {
    if (e instanceof DrizzleQueryError) return true;
    // pg's and PGlite's DatabaseError: a severity and a SQLSTATE.
    const { severity, code, message } = e as { severity?: unknown; code?: unknown; message?: unknown };
    if (typeof severity === 'string' && typeof code === 'string') return true;
    if (typeof message === 'string' && message.startsWith('Failed query:')) return true;
  }
  return false;
}

/**
 * What a failed job records of its error: a generic message for a database error (no SQL, no parameters),
 * else the error's own message, cleaned and bounded. The caller logs the error itself.
 */
export function jobErrorText(err: unknown): string {
  if (isDatabaseError(err)) return JOB_TEXTS.databaseError(sqlStateOf(err));
  return cleanJobText(err instanceof Error ? err.message : String(err));
}

/** The same for a step of a job that reports the step and goes on (`Unexpected error: …`). */
export function stepErrorText(err: unknown): string {
  if (isDatabaseError(err)) return JOB_TEXTS.stepDatabaseError(sqlStateOf(err));
  return cleanJobText(err instanceof Error ? err.message : String(err), 2000);
}
