/** Orders of text that do not depend on the database's collation (option lists, sorted answers). */
export const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Case-insensitive, then code-point order: the same on every database whatever its collation. */
export const byText = (a: string, b: string) => byCodePoint(a.toLowerCase(), b.toLowerCase()) || byCodePoint(a, b);
