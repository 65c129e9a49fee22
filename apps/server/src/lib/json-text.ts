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

/** `[` + the elements' JSON texts + `]`. */
export const arrayText = (elements: readonly string[]): string => `[${elements.join(',')}]`;
