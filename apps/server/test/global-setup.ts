import pg from 'pg';

/**
 * With TEST_DATABASE_URL, every test worker works in a schema of its own named after this run
 * (`test_<run pid>_w<worker>`), so two runs on one database never meet; the run drops its schemas at the end.
 */
export default function setup() {
  return async function teardown() {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname LIKE $1', [`test_${process.pid}_w%`]);
      for (const r of rows) await client.query(`DROP SCHEMA IF EXISTS "${r.nspname}" CASCADE`);
    } finally {
      await client.end();
    }
  };
}
