import pg from 'pg';

/**
 * Runs `work` with the URL of a fresh, empty PostgreSQL database next to TEST_DATABASE_URL's (process
 * tests: servers started as child processes need a database of their own), dropped afterwards.
 */
export async function withScratchPostgres<T>(prefix: string, work: (url: string) => Promise<T>): Promise<T> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const dbName = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(base.toString());
    url.pathname = `/${dbName}`;
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

/** Runs one SQL text on the database at `url` with a client of its own and answers its rows. */
export async function queryOnce(url: string, text: string): Promise<Record<string, unknown>[]> {
  const direct = new pg.Client({ connectionString: url });
  await direct.connect();
  try {
    return (await direct.query(text)).rows;
  } finally {
    await direct.end();
  }
}
