import rule from './sql-in-repositories.js';
import { ruleTester } from './rule-tester.mjs';

const filename = '/repo/apps/server/src/areas/search/search.service.ts';
const ok = (code) => ({ code, filename });
const bad = (code, ...messageIds) => ({ code, filename, errors: messageIds.map((messageId) => ({ messageId })) });

ruleTester.run('sql-in-repositories', rule, {
  valid: [
    ok("import type { SQL } from 'drizzle-orm';"),
    ok("import { type SQL, type InferSelectModel } from 'drizzle-orm';"),
    ok("import type { PgTransaction } from 'drizzle-orm/pg-core';"),
    ok("export type { SQL } from 'drizzle-orm';"),
    ok("import { z } from 'zod';"),
    ok("import { DrizzleQueryError } from 'drizzle-orm/errors';"),
    // English that starts like SQL is not SQL.
    ok("throw new Error('COPY read another number of rows than the file holds');"),
    ok("const action = 'CREATE';"),
    ok("const label = 'Create a release (only while none is open)';"),
    ok("const help = 'Select the modules to copy';"),
    ok("const text = 'Update the module, then set its price';"),
    ok("const kind = 'copy-module';"),
    ok('const note = `with the caller`;'),
    ok("const lock = 'LOCK ahead';"),
    ok("type Op = 'SELECT' | 'INSERT';"),
    ok('const q = repo.find(`SELECTED ${x}`);'),
  ],
  invalid: [
    bad("import { eq } from 'drizzle-orm';", 'drizzle'),
    bad("import { sql, type SQL } from 'drizzle-orm';", 'drizzle'),
    bad("import { pgTable } from 'drizzle-orm/pg-core';", 'drizzle'),
    bad("import * as orm from 'drizzle-orm';", 'drizzle'),
    bad("import 'drizzle-orm';", 'drizzle'),
    bad("const orm = await import('drizzle-orm');", 'drizzle'),
    bad('const q = sql`SELECT 1`;', 'tag'),
    bad('const q = drizzle.sql`now()`;', 'tag'),
    // Once per query, not for each piece inside it.
    bad('const q = sql`SELECT ${sql`a`}, ${cond ? sql`b` : sql`c`} FROM t`;', 'tag'),
    bad('const a = sql`x`;\nconst b = sql`y`;', 'tag', 'tag'),
    bad("const q = 'SELECT * FROM modules';", 'text'),
    bad("const q = '  \\n  select_me'.length + 'SELECT count(*) FROM t';", 'text'),
    bad('const q = `\n    SELECT ${columns} FROM ${table}`;', 'text'),
    bad("const q = 'INSERT INTO months (month_id) VALUES ($1)';", 'text'),
    bad("const q = 'UPDATE modules SET name = $1';", 'text'),
    bad("const q = 'UPDATE modules AS m SET name = $1';", 'text'),
    bad('const q = `UPDATE ${table} SET x = 1`;', 'text'),
    bad("const q = 'DELETE FROM locks WHERE id = $1';", 'text'),
    bad("const q = 'WITH gone AS (DELETE FROM locks RETURNING id) SELECT count(*) FROM gone';", 'text'),
    bad("const q = 'WITH RECURSIVE t(n) AS (SELECT 1) SELECT n FROM t';", 'text'),
    bad('const q = `COPY ${STAGE[kind]} (row_no, code) FROM STDIN`;', 'text'),
    bad("const q = 'COPY (SELECT 1) TO STDOUT';", 'text'),
    bad("const q = 'TRUNCATE modules, clusters';", 'text'),
    bad("const q = 'TRUNCATE TABLE modules';", 'text'),
    bad("const q = 'CREATE UNIQUE INDEX x ON t (a)';", 'text'),
    bad("const q = 'CREATE TABLE t (a int)';", 'text'),
    bad('const q = `ALTER TABLE ${name} ADD CONSTRAINT c`;', 'text'),
    bad('const q = `LOCK TABLE ${name} IN ACCESS EXCLUSIVE MODE`;', 'text'),
    bad("client.query('SELECT nspname FROM pg_namespace WHERE nspname LIKE $1', [x]);", 'text'),
  ],
});
