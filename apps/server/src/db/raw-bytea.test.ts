/**
 * Stored pieces read raw (raw-bytea.ts): the bytes a select would give, on both databases (PostgreSQL through a binary
 * COPY, the embedded database through the fallback), whatever they hold.
 */
import { sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/test-database.js';
import { queryRows } from './client.js';
import { copiedBytea, firstBytea, inlined, intLiteral, pgOf, rawBytea, textLiteral } from './raw-bytea.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Reads `select` raw (on PostgreSQL through the COPY, asserted), and as a query reads it. */
async function both(select: SQL): Promise<[Buffer | null, Buffer | null]> {
  const { db } = await testDatabase();
  const rows = await queryRows<{ data: Uint8Array | null }>(db, select);
  const selected = rows[0]?.data ? Buffer.from(rows[0].data) : null;
  const raw = await rawBytea(db, select);
  // PostgreSQL reads it through the COPY; only the embedded database has no pg connection and runs the select.
  const client = pgOf(db);
  expect(client !== null).toBe(!!process.env.TEST_DATABASE_URL);
  if (client) expect(await copiedBytea(client, select)).toEqual(raw);
  return [raw, selected];
}

describe('a bytea read raw', () => {
  it('is the bytes a select gives, for any bytes (NUL, quotes, 0xff, none)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), async (bytes) => {
        const [raw, selected] = await both(sql.raw(`SELECT decode('${hex(bytes)}', 'hex') AS data`));
        expect(raw?.equals(Buffer.from(bytes))).toBe(true);
        expect(selected?.equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('is whole for a piece of several MiB (many messages on the wire)', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    const [raw] = await both(sql.raw(`SELECT decode('${bytes.toString('hex')}', 'hex') AS data`));
    expect(raw?.length).toBe(bytes.length);
    expect(raw?.equals(bytes)).toBe(true);
  });

  it('is null without a row or for NULL, and takes its key as literals', async () => {
    expect((await both(sql`SELECT decode('00', 'hex') AS data WHERE false`))[0]).toBeNull();
    expect((await both(sql`SELECT NULL::bytea AS data`))[0]).toBeNull();
    const keyed = sql`SELECT convert_to(${"it's a 'field'"}::text, 'UTF8') AS data WHERE ${7}::int = 7`;
    expect(inlined(keyed)).toBe(`SELECT convert_to('it''s a ''field'''::text, 'UTF8') AS data WHERE 7::int = 7`);
    const [quoted, selected] = await both(keyed);
    expect(quoted?.toString('utf8')).toBe("it's a 'field'");
    expect(selected?.toString('utf8')).toBe("it's a 'field'");
  });

  it('refuses keys that are not literals it can write, and output that is not a binary COPY', () => {
    expect(() => intLiteral(1.5)).toThrow();
    expect(() => intLiteral(Number.MAX_SAFE_INTEGER + 2)).toThrow();
    expect(() => textLiteral('a\u0000b')).toThrow();
    expect(() => inlined(sql`SELECT ${true}`)).toThrow();
    expect(() => firstBytea(Buffer.from('not a copy at all, not at all'))).toThrow();
  });
});
