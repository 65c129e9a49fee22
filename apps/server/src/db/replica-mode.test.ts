/**
 * db/replica-mode.ts on the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL): who may turn replica mode on,
 * and that `inReplicaMode` leaves out the foreign keys' triggers for its write alone.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/test-app.js';
import { queryRows, type Db } from './client.js';
import { inReplicaMode, mayUseReplicaMode } from './replica-mode.js';

let db: Db;
let close: () => Promise<void>;
let onPostgres = false;

beforeAll(async () => {
  const t = await buildTestApp({});
  db = t.db;
  onPostgres = t.app.database.kind === 'postgres';
  close = () => t.app.close();
});
afterAll(async () => close());

const mode = async (tx: Db | Parameters<Parameters<Db['transaction']>[0]>[0]) =>
  (await queryRows<{ mode: string }>(tx, sql`SELECT current_setting('session_replication_role') AS mode`))[0]!.mode;

describe('replica mode', () => {
  it("is allowed to a superuser (the tests' user, and always the embedded database's)", async () => {
    expect(await mayUseReplicaMode(db)).toBe(true);
  });

  it('is refused to a user that is neither a superuser nor granted SET on session_replication_role, and allowed once granted (PostgreSQL)', async () => {
    if (!onPostgres) return;
    const role = `bo_replica_test_${process.pid}`;
    await db.execute(sql.raw(`DROP ROLE IF EXISTS ${role}`));
    await db.execute(sql.raw(`CREATE ROLE ${role} NOSUPERUSER NOLOGIN`));
    try {
      const asRole = () =>
        db.transaction(async (tx) => {
          await tx.execute(sql.raw(`SET LOCAL ROLE ${role}`));
          return mayUseReplicaMode(tx);
        });
      expect(await asRole()).toBe(false);
      await db.execute(sql.raw(`GRANT SET ON PARAMETER session_replication_role TO ${role}`));
      expect(await asRole()).toBe(true);
      await db.execute(sql.raw(`REVOKE SET ON PARAMETER session_replication_role FROM ${role}`));
    } finally {
      await db.execute(sql.raw(`DROP ROLE ${role}`));
    }
  });

  it("leaves out the foreign keys' triggers for its write only, then puts the mode back; a rollback puts it back too", async () => {
    await db.execute(sql`CREATE TABLE rm_parent (id integer PRIMARY KEY)`);
    await db.execute(sql`CREATE TABLE rm_child (parent integer REFERENCES rm_parent (id))`);
    try {
      await db.transaction(async (tx) => {
        expect(await mode(tx)).toBe('origin');
        // A row pointing nowhere goes in unchecked inside the write …
        await inReplicaMode(tx, async () => {
          expect(await mode(tx)).toBe('replica');
          await tx.execute(sql`INSERT INTO rm_child VALUES (1)`);
        });
        // … and after it the mode is back, and the key is checked again.
        expect(await mode(tx)).toBe('origin');
        await tx.execute(sql`SAVEPOINT s`);
        await expect(tx.execute(sql`INSERT INTO rm_child VALUES (2)`)).rejects.toThrow();
        await tx.execute(sql`ROLLBACK TO SAVEPOINT s`);
        // A write that throws leaves the mode to the caller's rollback.
        await tx.execute(sql`SAVEPOINT t`);
        await expect(inReplicaMode(tx, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
        expect(await mode(tx)).toBe('replica');
        await tx.execute(sql`ROLLBACK TO SAVEPOINT t`);
        expect(await mode(tx)).toBe('origin');
      });
      expect(await mode(db)).toBe('origin');
      expect(await queryRows(db, sql`SELECT parent FROM rm_child`)).toEqual([{ parent: 1 }]);
    } finally {
      await db.execute(sql`DROP TABLE rm_child`);
      await db.execute(sql`DROP TABLE rm_parent`);
    }
  });
});
