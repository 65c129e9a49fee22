import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/client.js';
import { jobs } from '../db/schema.js';
import { resetDatabase, testDatabase } from '../../test/test-database.js';
import { JobRunner } from './job-runner.js';
import { JOB_TEXT_MAX_CHARS, JOB_TEXTS } from './job-text.js';

let database: Database;
const extra: Database[] = [];

beforeEach(async () => {
  database = await testDatabase();
  await resetDatabase(database);
});
afterEach(async () => {
  for (const d of extra.splice(0)) await d.close();
});

/** A second connection pool on the same database, as a second server process would have. */
async function secondProcessDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `test_${process.ppid}_w${process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '0'}`;
  const d = await openDatabase({ url, schema, poolSize: 4 });
  extra.push(d);
  return d;
}

async function waitAllFinished(count: number) {
  for (let i = 0; i < 400; i++) {
    const rows = await database.db.select({ status: jobs.status }).from(jobs);
    if (rows.length === count && rows.every((r) => r.status === 'DONE' || r.status === 'FAILED')) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('jobs did not finish');
}

describe('JobRunner', () => {
  it('answers a waiting request at once when it is stopping, without running the job in the request', async () => {
    const runner = new JobRunner(database, { staleMs: 15_000, log: () => undefined });
    let ran = 0;
    runner.register('slow', async () => {
      ran++;
      return {};
    });
    const job = await runner.enqueue(database.db, 'slow', {}, 'tester');
    await runner.stop();
    const started = Date.now();
    const row = await runner.waitFor(job.id, 60_000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(row?.status).toBe('QUEUED');
    expect(ran).toBe(0);
  });

  // One embedded database belongs to one process (and its one runner): the race needs PostgreSQL.
  it.skipIf(!process.env.TEST_DATABASE_URL)('runs each job exactly once with two runners (two processes) polling the same table', async () => {
    const runs = new Map<number, number>();
    const handler = async ({ job }: { job: { id: number } }) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 5));
      return { response: 'ok' };
    };
    const a = new JobRunner(database, { pollMs: 20 });
    const b = new JobRunner(await secondProcessDatabase(), { pollMs: 20 });
    a.register('count', handler);
    b.register('count', handler);
    for (let i = 0; i < 30; i++) await a.enqueue(database.db, 'count', { i }, 'tester');
    a.start();
    b.start();
    try {
      const rows = await waitAllFinished(30);
      expect(rows.every((r) => r.status === 'DONE')).toBe(true);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(runs.size).toBe(30);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    const done = await database.db.select().from(jobs);
    expect(done.every((j) => j.progress === 100 && j.response === 'ok' && j.attempts === 1)).toBe(true);
  });

  it('runs up to `concurrency` jobs at once, each once, and no more', async () => {
    for (const concurrency of [1, 3]) {
      await resetDatabase(database);
      let now = 0;
      let most = 0;
      const runs = new Map<number, number>();
      const runner = new JobRunner(database, { pollMs: 20, concurrency });
      runner.register('slow', async ({ job }) => {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        most = Math.max(most, ++now);
        await new Promise((r) => setTimeout(r, 60));
        now--;
        return { response: 'ok' };
      });
      for (let i = 0; i < 7; i++) await runner.enqueue(database.db, 'slow', { i }, 'tester');
      runner.start();
      try {
        const rows = await waitAllFinished(7);
        expect(rows.every((r) => r.status === 'DONE')).toBe(true);
      } finally {
        await runner.stop();
      }
      expect(most, `concurrency ${concurrency}`).toBe(concurrency);
      expect([...runs.values()]).toEqual(Array.from({ length: 7 }, () => 1));
    }
  });

  it('runs a kind registered `alone` one at a time, other kinds beside it', async () => {
    const runner = new JobRunner(database, { pollMs: 20, concurrency: 3 });
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    const handler = (kind: string) => async () => {
      running.set(kind, (running.get(kind) ?? 0) + 1);
      most.set(kind, Math.max(most.get(kind) ?? 0, running.get(kind)!));
      await new Promise((r) => setTimeout(r, 60));
      running.set(kind, running.get(kind)! - 1);
      return { response: 'ok' };
    };
    runner.register('export-like', handler('export-like'), { alone: true });
    runner.register('other', handler('other'));
    expect(() => runner.register('bad kind', handler('x'))).toThrow(/letters, digits/);
    for (let i = 0; i < 4; i++) {
      await runner.enqueue(database.db, 'export-like', { i }, 'tester');
      await runner.enqueue(database.db, 'other', { i }, 'tester');
    }
    runner.start();
    try {
      const rows = await waitAllFinished(8);
      expect(rows.every((r) => r.status === 'DONE')).toBe(true);
    } finally {
      await runner.stop();
    }
    expect(most.get('export-like')).toBe(1);
    expect(most.get('other')).toBeGreaterThanOrEqual(2);
  });

  it('where another runner runs the jobs (runElsewhere), enqueues and waits for that one, never running a job itself', async () => {
    const caller = new JobRunner(database, { log: () => undefined });
    const ranBy: string[] = [];
    caller.register('work', async () => {
      ranBy.push('caller');
      return { response: 'caller' };
    });
    caller.runElsewhere();
    const other = new JobRunner(database, { pollMs: 20 });
    other.register('work', async () => {
      ranBy.push('other');
      return { response: 'other' };
    });
    const job = await caller.enqueue(database.db, 'work', {}, 'tester');
    // Nobody runs it yet: the waiting caller answers the row as it is when its time is up.
    expect((await caller.waitFor(job.id, 300))?.status).toBe('QUEUED');
    other.start();
    try {
      const row = await caller.waitFor(job.id, 10_000);
      expect(row).toMatchObject({ status: 'DONE', response: 'other' });
    } finally {
      await other.stop();
    }
    expect(ranBy).toEqual(['other']);
    other.start();
    expect(() => other.runElsewhere()).toThrow(/started/);
    await other.stop();
  });

  it('resumes a job orphaned by a dead process from its checkpoint', async () => {
    const seen: unknown[] = [];
    const runner = new JobRunner(database, { staleMs: 1000 });
    runner.register('steps', async ({ resumeFrom, progress }) => {
      seen.push(resumeFrom);
      const start = typeof resumeFrom === 'number' ? resumeFrom : 0;
      for (let i = start; i < 4; i++) await progress(((i + 1) / 4) * 100, i + 1);
      return { result: { from: start } };
    });
    const job = await runner.enqueue(database.db, 'steps', {}, 'tester');
    // What a process that died after two steps leaves behind: RUNNING, a checkpoint, an old heartbeat.
    await database.db
      .update(jobs)
      .set({ status: 'RUNNING', workerId: 'dead', attempts: 1, progress: 50, result: { checkpoint: 2 }, heartbeatAt: new Date(Date.now() - 60_000) })
      .where(eq(jobs.id, job.id));
    runner.start();
    try {
      await waitAllFinished(1);
    } finally {
      await runner.stop();
    }
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row).toMatchObject({ status: 'DONE', progress: 100, attempts: 2, result: { from: 2 } });
    expect(seen).toEqual([2]);
  });

  it('fails a job that was interrupted too many times, and records a handler error', async () => {
    const runner = new JobRunner(database, { staleMs: 1000, maxAttempts: 3 });
    runner.register('boom', async () => {
      throw new Error('The planning system is down');
    });
    const orphan = await runner.enqueue(database.db, 'boom', {}, 'tester');
    await database.db
      .update(jobs)
      .set({ status: 'RUNNING', workerId: 'dead', attempts: 3, heartbeatAt: new Date(Date.now() - 60_000) })
      .where(eq(jobs.id, orphan.id));
    const failing = await runner.enqueue(database.db, 'boom', {}, 'tester');
    runner.start();
    try {
      await waitAllFinished(2);
    } finally {
      await runner.stop();
    }
    const rows = await database.db.select().from(jobs).orderBy(jobs.id);
    expect(rows.map((r) => [r.id, r.status, r.response])).toEqual([
      [orphan.id, 'FAILED', 'The job was interrupted too many times and was stopped.'],
      [failing.id, 'FAILED', 'The planning system is down'],
    ]);
  });

  it('fails a job of an unknown kind', async () => {
    const runner = new JobRunner(database);
    const job = await runner.enqueue(database.db, 'nobody-knows', {}, 'tester');
    await runner.drain();
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row).toMatchObject({ status: 'FAILED', response: 'Unknown job kind nobody-knows' });
  });
});

describe('JobRunner: failures that are hard to record', () => {
  it('records a handler error without NUL or invalid characters, and bounded; a response with a NUL is cleaned too', async () => {
    const runner = new JobRunner(database, { log: () => undefined });
    runner.register('nul', async () => {
      throw new Error(`The value 'a\u0000b' is bad \uD800 ${'x'.repeat(JOB_TEXT_MAX_CHARS)}`);
    });
    runner.register('nul-response', async () => ({ response: 'Done\u0000 well' }));
    const failing = await runner.enqueue(database.db, 'nul', {}, 'tester');
    const done = await runner.enqueue(database.db, 'nul-response', {}, 'tester');
    await runner.drain();
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, failing.id));
    expect(row!.status).toBe('FAILED');
    expect(row!.response!.startsWith("The value 'ab' is bad  xxx")).toBe(true);
    expect(row!.response!.length).toBeLessThanOrEqual(JOB_TEXT_MAX_CHARS);
    expect(row!.response!.endsWith('…')).toBe(true);
    const [ok] = await database.db.select().from(jobs).where(eq(jobs.id, done.id));
    expect(ok).toMatchObject({ status: 'DONE', response: 'Done well' });
  });

  it('ends a job FAILED with a clean message when recording its failure throws the first time', async () => {
    // The database refuses the first write of a FAILED job (a sequence is not rolled back with the refusal).
    await database.execScript(`
      CREATE SEQUENCE refuse_failed_once;
      CREATE FUNCTION refuse_failed_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'FAILED' AND nextval('refuse_failed_once') = 1 THEN RAISE EXCEPTION 'refused once'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_failed_once BEFORE UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION refuse_failed_once();`);
    try {
      const logged: string[] = [];
      const runner = new JobRunner(database, { log: (msg) => logged.push(msg) });
      runner.register('boom', async () => {
        throw new Error('The planning system is down');
      });
      const job = await runner.enqueue(database.db, 'boom', {}, 'tester');
      await runner.drain();
      const [row] = await database.db.select().from(jobs).where(eq(jobs.id, job.id));
      expect(row).toMatchObject({ status: 'FAILED', response: JOB_TEXTS.failureNotRecorded });
      expect(row!.finishedAt).not.toBeNull();
      expect(logged).toContain('job failure not recorded');
    } finally {
      await database.execScript('DROP TRIGGER refuse_failed_once ON jobs; DROP FUNCTION refuse_failed_once(); DROP SEQUENCE refuse_failed_once;');
    }
  });

  it('never records SQL or query parameters: a database error in a handler is recorded as a generic message', async () => {
    const logged: { msg: string; extra?: object }[] = [];
    const runner = new JobRunner(database, { log: (msg, extra) => logged.push({ msg, extra }) });
    runner.register('dup', async ({ job, db }) => {
      // The job's own id again: a unique violation, whose text carries the statement and its parameters.
      await db.insert(jobs).values({ id: job.id, kind: 'secret-p4ram', payload: { secret: 'p4ram' }, createdBy: 'tester' });
    });
    const job = await runner.enqueue(database.db, 'dup', {}, 'tester');
    await runner.drain();
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row).toMatchObject({ status: 'FAILED', response: JOB_TEXTS.databaseError('23505') });
    for (const leak of ['insert into', '$1', 'p4ram', 'params']) expect(row!.response!.toLowerCase()).not.toContain(leak);
    // The detail is in the log.
    expect(JSON.stringify(logged)).toContain('p4ram');
  });

  it('looks for orphaned jobs at its first poll, then every staleMs / 5, not at every poll', async () => {
    const runner = new JobRunner(database, { staleMs: 5000, pollMs: 20 });
    runner.register('lost', async () => ({ response: 'ok' }));
    let orphanId = 0;
    runner.start();
    try {
      // The first polls have looked for orphans; the next look is 1 s after the first.
      await new Promise((r) => setTimeout(r, 60));
      const lookedAt = Date.now();
      const [orphan] = await database.db
        .insert(jobs)
        .values({ kind: 'lost', payload: {}, createdBy: 'tester', status: 'RUNNING', workerId: 'dead', attempts: 1, heartbeatAt: new Date(Date.now() - 60_000) })
        .returning();
      orphanId = orphan!.id;
      // Some fifteen polls later, still RUNNING: a poll claims QUEUED jobs only.
      await new Promise((r) => setTimeout(r, 300));
      const [waiting] = await database.db.select().from(jobs).where(eq(jobs.id, orphanId));
      if (Date.now() - lookedAt < 900) expect(waiting!.status).toBe('RUNNING');
      // The next look requeues it, and the runner runs it.
      await waitAllFinished(1);
    } finally {
      await runner.stop();
    }
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, orphanId));
    expect(row).toMatchObject({ status: 'DONE', response: 'ok', attempts: 2 });
  });

  it('requeues a job of its own process that stopped beating and is not in hand', async () => {
    const runner = new JobRunner(database, { staleMs: 1000, pollMs: 20 });
    let ran = 0;
    runner.register('lost', async () => {
      ran++;
      return { response: 'ok' };
    });
    const job = await runner.enqueue(database.db, 'lost', {}, 'tester');
    // What a failure that could not be recorded leaves: RUNNING, this process's worker id, no heartbeat since.
    await database.db
      .update(jobs)
      .set({ status: 'RUNNING', workerId: runner.workerId, attempts: 1, heartbeatAt: new Date(Date.now() - 60_000) })
      .where(eq(jobs.id, job.id));
    runner.start();
    try {
      await waitAllFinished(1);
    } finally {
      await runner.stop();
    }
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row).toMatchObject({ status: 'DONE', response: 'ok', attempts: 2 });
    expect(ran).toBe(1);
  });
});
