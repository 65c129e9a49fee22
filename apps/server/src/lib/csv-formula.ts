/**
 * CSV injection (OWASP "CSV Injection"): a spreadsheet opening a CSV file runs a field that begins with
 * `=`, `+`, `-`, `@`, a tab or a carriage return as a formula (`=HYPERLINK("http://x","y")`). Every CSV the
 * product writes goes through `escapeFormula` (release-export.ts `csvField`), and the release loader reads every
 * cell through `unescapeFormula` (formats.ts `parseCell`, which both loader paths use, for CSV and xlsx alike: a
 * downloaded file saved again by a spreadsheet keeps the quote in its cells), so download → load gives back the
 * same values.
 *
 * The escape is one quote, and it is reversible for every string:
 * - the writer prefixes `'` to a field of any number of quotes followed by a trigger (/^'*[=+\-@\t\r]/), so a
 *   written field never begins with a trigger, and a field that already began with quotes before a trigger gets
 *   one more;
 * - the reader removes exactly one leading `'` from a field of one or more quotes followed by a trigger
 *   (/^'+[=+\-@\t\r]/) and leaves every other field alone.
 * Numbers get no exception: `-1.5` is written `'-1.5` (no column of the release files holds a negative number;
 * the loader reads `'-1.5` back as `-1.5`).
 */

/** A field a spreadsheet would take for a formula, once its leading quotes are removed. */
const NEEDS_QUOTE = /^'*[=+\-@\t\r]/;
/** A field the writer escaped: one quote or more, then a trigger. */
const ESCAPED = /^'+[=+\-@\t\r]/;

/** The field as a CSV writer writes it: `'` before a field that (past its leading quotes) begins with a trigger. */
export const escapeFormula = (field: string): string => (NEEDS_QUOTE.test(field) ? `'${field}` : field);

/** The field as it was before `escapeFormula`: one leading `'` less on a field of quotes then a trigger. */
export const unescapeFormula = (field: string): string => (ESCAPED.test(field) ? field.slice(1) : field);
