import type pg from 'pg';
import { hashPassword } from '../src/auth/password.js';

/** A grant row as user_grants holds it: type ('brand', 'starszone', 'rule'), code, permission type. */
export type BenchGrant = [string, string, string];

/**
 * The load benchmarks' planners written in SQL, in one transaction (idempotent): each user created or
 * re-enabled with password 'demo' and its role, its grants replaced by `grants`. The locks left by a run
 * stopped half-way by users named `${prefix}…` are removed, so the planners start with none.
 */
export async function writeBenchUsers(
  client: pg.Client,
  prefix: string,
  users: readonly { username: string; role: string; grants: readonly BenchGrant[] }[],
): Promise<void> {
  const passwordHash = await hashPassword('demo');
  await client.query('BEGIN');
  try {
    for (const u of users) {
      const { rows } = await client.query<{ user_id: number }>(
        `INSERT INTO users (username, email, first_name, last_name, password_hash, role, status)
         VALUES ($1, $1 || '@bench.invalid', 'Bench', $1, $2, $3, 'Enabled')
         ON CONFLICT (lower(username)) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role, status = 'Enabled'
         RETURNING user_id`,
        [u.username, passwordHash, u.role],
      );
      const userId = rows[0]!.user_id;
      await client.query('DELETE FROM user_grants WHERE user_id = $1', [userId]);
      await client.query(
        'INSERT INTO user_grants (user_id, grant_type, grant_code, permission_type) SELECT $1, g->>0, g->>1, g->>2 FROM jsonb_array_elements($2::jsonb) g ON CONFLICT DO NOTHING',
        [userId, JSON.stringify(u.grants)],
      );
    }
    await client.query(`DELETE FROM locks WHERE lower(owner) LIKE $1`, [`${prefix.replace(/[\\_%]/g, '\\$&')}%`]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
