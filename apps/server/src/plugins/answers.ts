/**
 * How the large answers are written (docs/performance.md "1. Search at the database's speed").
 *
 * fastify-type-provider-zod's serializer checks every answer against its zod schema and then calls
 * JSON.stringify: for a home search of 1,500 modules or a module page of 3,000 SKUs that costs more
 * than the SQL. The routes that answer that much use `compiledAnswers(app)` instead:
 *  - an answer the database wrote as JSON text (`JsonText`, e.g. row_to_json of each row) is sent as it is
 *    (as its UTF-8 bytes when it holds them: a kept search answer of 1 MB is not encoded again at every call);
 *  - any other answer is written by fast-json-stringify, compiled once from the zod schema's JSON
 *    Schema (same keys, in the schema's order, unknown keys left out, as zod's encode did).
 * The check the production path leaves out is made in tests: with `app.checkAnswers` (the test app
 * sets it) every answer of those routes is parsed back and must be exactly what zod's serializer
 * would have sent (parses, no missing or extra keys, same values); a difference fails the call (500).
 */
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance } from 'fastify';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { JsonText } from '../lib/json-text.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Check the answers of `compiledAnswers` routes against their zod schemas (tests). */
    checkAnswers: boolean;
  }
}

function checkAnswer(schema: z.ZodType, text: string, where: string): void {
  const sent: unknown = JSON.parse(text);
  const parsed = schema.safeParse(sent);
  if (!parsed.success) throw new Error(`${where}: the answer does not match its schema: ${z.prettifyError(parsed.error)}`);
  // What zod's serializer would have written, read back: the same keys and values as what was sent.
  const expected: unknown = JSON.parse(JSON.stringify(z.encode(schema, parsed.data)));
  if (!isDeepStrictEqual(expected, sent)) throw new Error(`${where}: the answer has keys or values its schema would not have written`);
}

/** A route's `serializerCompiler`: JsonText as it is, other answers by a serializer compiled from the zod schema. */
export function compiledAnswers(app: FastifyInstance) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }) => {
    const zodSchema = schema as z.ZodType;
    const write = fastJson(z.toJSONSchema(zodSchema, { io: 'output', target: 'draft-07' }) as Parameters<typeof fastJson>[0]);
    // Fastify's types say a serializer answers a string; it sends a Buffer as well (its bytes as they are).
    return (data: unknown): string => {
      const text = data instanceof JsonText ? data.text : write(data);
      if (app.checkAnswers) {
        try {
          checkAnswer(zodSchema, typeof text === 'string' ? text : text.toString('utf8'), `${method} ${url}`);
        } catch (err) {
          // Tests run without a logger: say what differs where the test output shows it.
          console.error(err);
          throw err;
        }
      }
      return text as string;
    };
  };
}
