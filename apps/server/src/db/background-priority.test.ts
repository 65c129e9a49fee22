/**
 * Background jobs' PostgreSQL backends at a lower priority (background-priority.ts): the title check that keeps a pid of
 * another machine untouched, and, on a PostgreSQL of this machine (CI's), a job's backend reniced while the planners'
 * pool keeps its priority. On the embedded database the jobs share its one handle.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/test-database.js';
import { BACKGROUND_NICE } from '../lib/background-nice.js';
import { isBackendOf } from './background-priority.js';
import { queryRows, type Database } from './client.js';
import { JobRunner } from '../jobs/job-runner.js';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

const backendPid = async (db: Database['db']) => (await queryRows<{ pid: number }>(db, sql`SELECT pg_backend_pid() AS pid`))[0]!.pid;

describe('a backend of this connection', () => {
  it('is a PostgreSQL title naming the client port, or [local] for a unix socket', () => {
    expect(isBackendOf('postgres: 15/main: postgres test 127.0.0.1(54321) idle ', 54321)).toBe(true);
    expect(isBackendOf('postgres: postgres test [local] SELECT ', undefined)).toBe(true);
    // Another client's backend, a unix-socket backend for a TCP client, a process that is not PostgreSQL.
    expect(isBackendOf('postgres: 15/main: postgres test 127.0.0.1(54322) idle ', 54321)).toBe(false);
    expect(isBackendOf('postgres: 15/main: postgres test 127.0.0.1(154321) idle ', 54321)).toBe(false);
    expect(isBackendOf('postgres: postgres test [local] idle ', 54321)).toBe(false);
    expect(isBackendOf('node server.js 127.0.0.1(54321) ', 54321)).toBe(false);
    expect(isBackendOf('postgres: 15/main: checkpointer ', undefined)).toBe(false);
  });
});

describe('background jobs', () => {
  it.runIf(!process.env.TEST_DATABASE_URL)('share the embedded database handle', () => {
    expect(database.background).toBe(database.db);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('run on backends reniced to the background nice, the planners keep theirs', async () => {
    const runner = new JobRunner(database);
    let jobPid = 0;
    runner.register('whose-backend', async ({ db }) => {
      jobPid = await backendPid(db);
      // The renice is queued behind the connection's first query: it has happened by the job's second.
      await backendPid(db);
    });
    await runner.enqueue(database.db, 'whose-backend', {}, 'tester');
    await runner.drain();
    const plannerPid = await backendPid(database.db);
    expect(jobPid).toBeGreaterThan(0);
    expect(jobPid).not.toBe(plannerPid);
    // CI's PostgreSQL is on this machine: its backends are processes we see.
    expect(os.getPriority(jobPid)).toBe(BACKGROUND_NICE);
    expect(os.getPriority(plannerPid)).toBe(0);
  });
});
