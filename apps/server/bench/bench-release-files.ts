/**
 * Release files for a load into a benchmark data set (the load benchmark's bulk phase): the files of
 * test/release-files.ts (`writeReleaseFiles`, as release-loader.bench.ts loads them), moved to a release of
 * their own, BENCH_RELEASE, whose months are closed — so that a `massive` load replaces only what an earlier
 * run of the benchmark loaded, never the data set's R2027, and no planner searches its modules — with the
 * fifth file, Reference Data, adding what the files name and the demo world lacks (LIA01, VIP).
 *
 * The release and its months are written in SQL once (the product creates a release only while none is
 * open); the release is opened only while its load runs (`openBenchRelease`), so the data set keeps one open release.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { FORMATS, type LoaderFileKind } from '../src/areas/uploads/release-loader/formats.js';
import { writeReleaseFiles, type GeneratedFile } from '../test/release-files.js';

export const BENCH_RELEASE = 'RBENCH';
/** The months of the generated files and where they move to (far from the demo's 2026–2027). */
const MONTH_MOVES: Record<string, string> = { M01_2027: 'M01_2031', M02_2027: 'M02_2031', M10_2027: 'M10_2031' };

/** Rewrites a CSV file's month ids (whole lines at a time, so no id is cut between two chunks). */
async function moveMonths(file: string): Promise<void> {
  const pattern = new RegExp(Object.keys(MONTH_MOVES).join('|'), 'g');
  let rest = '';
  async function* moved(source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      const text = rest + chunk.toString('utf8');
      const cut = text.lastIndexOf('\n') + 1;
      rest = text.slice(cut);
      yield text.slice(0, cut).replace(pattern, (m) => MONTH_MOVES[m]!);
    }
    yield rest.replace(pattern, (m) => MONTH_MOVES[m]!);
  }
  await pipeline(createReadStream(file), moved, createWriteStream(`${file}.moved`));
  await rename(`${file}.moved`, file);
}

/** The five files in `dir`: `lines` module lines in BENCH_RELEASE's months, and Reference Data. */
export async function writeBenchReleaseFiles(dir: string, lines: number): Promise<Record<LoaderFileKind, GeneratedFile>> {
  const files = await writeReleaseFiles(dir, lines);
  await moveMonths(files.module.path);
  await moveMonths(files.cluster.path);
  const referencePath = path.join(dir, 'reference.csv');
  const names = FORMATS.reference.columns.map((c) => c.name);
  const rows = [
    { kind: 'LIA', code: 'LIA01', parent: 'RETAIL' },
    { kind: 'CLIENT_CLASSIFICATION', code: 'VIP' },
  ] as Record<string, string>[];
  const text = [names.join(','), ...rows.map((r) => names.map((n) => r[n] ?? '').join(','))].join('\n') + '\n';
  await pipeline([text], createWriteStream(referencePath));
  return { ...files, reference: { path: referencePath, rows: rows.length, size: Buffer.byteLength(text) } };
}

/** BENCH_RELEASE and its months, closed (idempotent). */
export async function prepareBenchRelease(client: pg.Client): Promise<void> {
  await client.query(`INSERT INTO releases (release_id, status) VALUES ($1, 'CLOSED') ON CONFLICT DO NOTHING`, [BENCH_RELEASE]);
  for (const monthId of Object.values(MONTH_MOVES)) {
    await client.query(
      `INSERT INTO months (month_id, year, month, open, release_id) VALUES ($1, $2, $3, false, $4) ON CONFLICT (month_id) DO NOTHING`,
      [monthId, Number(monthId.slice(4)), Number(monthId.slice(1, 3)), BENCH_RELEASE],
    );
  }
  const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM months WHERE month_id = ANY($1) AND (release_id IS DISTINCT FROM $2 OR open)`, [Object.values(MONTH_MOVES), BENCH_RELEASE]);
  if (rows[0]!.n) throw new Error(`the months ${Object.values(MONTH_MOVES).join(', ')} exist outside the closed ${BENCH_RELEASE}: this data set cannot take the bench's release load`);
}

/**
 * Empties BENCH_RELEASE's months (their modules and clusters, with their lines) and vacuums what that left, so
 * that every run's load writes all its lines into months holding none: the same work each run. A reload of the
 * same files would write no line (the loader keeps the lines stored as the files say: docs/RELEASE-FILES.md), so
 * it would not measure a load of that many lines. Returns the module lines removed.
 */
export async function emptyBenchRelease(client: pg.Client): Promise<number> {
  const months = Object.values(MONTH_MOVES);
  await client.query(`DELETE FROM clusters WHERE month_id = ANY($1)`, [months]);
  const { rows } = await client.query<{ n: number }>(
    `WITH gone AS (DELETE FROM modules WHERE month_id = ANY($1) RETURNING mh_count + el_count AS n) SELECT coalesce(sum(n), 0)::int AS n FROM gone`,
    [months],
  );
  if (rows[0]!.n > 0) await client.query('VACUUM (ANALYZE) module_skus, modules, module_stars_zones, clusters, cluster_modules, cluster_stores');
  return rows[0]!.n;
}

/** Opens BENCH_RELEASE for `fn` (a load into a closed release is refused), then closes it again. */
export async function openBenchRelease<T>(client: pg.Client, fn: () => Promise<T>): Promise<T> {
  await client.query(`UPDATE releases SET status = 'OPEN' WHERE release_id = $1`, [BENCH_RELEASE]);
  try {
    return await fn();
  } finally {
    await client.query(`UPDATE releases SET status = 'CLOSED' WHERE release_id = $1`, [BENCH_RELEASE]);
  }
}
