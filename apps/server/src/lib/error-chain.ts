/** An error and the errors it wraps (`cause`), outermost first, at most five deep. */
export function* errorChain(err: unknown): Generator<object> {
  let e: unknown = err;
  for (let i = 0; i < 5 && e !== null && typeof e === 'object'; i++) {
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}

/**
 * The SQLSTATE of a database error, on the error or on one of its causes (Drizzle wraps the driver's
 * error — pg's DatabaseError, PGlite's DatabaseError, both with `code` — in `cause`).
 */
export function sqlStateOf(err: unknown): string | null {
  for (const e of errorChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}
