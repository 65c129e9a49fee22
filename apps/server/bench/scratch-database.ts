import pg from 'pg';

/** The server the benchmarks make their databases on (BENCH_DATABASE_URL, default the local one). */
const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A benchmark's own database next to BENCH_DATABASE_URL's: dropped and created empty, unless it
 * exists and `reuse` is asked. Answers its URL and whether it is new (and so needs seeding).
 */
export async function scratchDatabase(name: string, reuse: boolean): Promise<{ url: string; fresh: boolean }> {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (exists && reuse) return { url: url.toString(), fresh: false };
    if (exists) await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    return { url: url.toString(), fresh: true };
  } finally {
    await admin.end();
  }
}

/** The value below which p percent of the sorted figures lie. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
