/**
 * Answers written as JSON before they reach Fastify (by the database: row_to_json of each list item).
 * A route whose `serializerCompiler` is `compiledAnswers` (plugins/answers.ts) sends the text as it
 * is; the test app checks it against the route's zod schema (docs/performance.md, section 1).
 */

/** An answer already written as JSON (text, or its UTF-8 bytes: sent without encoding it again), of type T once parsed. */
export class JsonText<T> {
  declare readonly answer: T;
  constructor(readonly text: string | Buffer) {}
}

/** A JsonText as the route's typed answer: the route's serializer (`compiledAnswers`) sends its text. */
export const sendText = <T>(json: JsonText<T>): T => json as unknown as T;

/** Adds to `pieces` the texts of a JSON array of the elements' JSON texts: `[`, the elements with commas between, `]`. */
export function pushArray(pieces: string[], elements: readonly string[]): void {
  pieces.push('[');
  for (let i = 0; i < elements.length; i++) {
    if (i > 0) pieces.push(',');
    pieces.push(elements[i]!);
  }
  pieces.push(']');
}

/**
 * The UTF-8 bytes of the texts one after the other, each written straight into one buffer of their added sizes. For a
 * home search of 1,500 modules (780 KB) this takes 0.3 ms where joining the texts and encoding the string took 7 ms
 * (docs/performance.md, "Answers written as bytes").
 */
export function concatBytes(pieces: readonly string[]): Buffer {
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece, 'utf8');
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += out.write(piece, at, 'utf8');
  return out;
}

/** The UTF-8 bytes of a JSON array of the elements' JSON texts. */
export function arrayBytes(elements: readonly string[]): Buffer {
  const pieces: string[] = [];
  pushArray(pieces, elements);
  return concatBytes(pieces);
}
