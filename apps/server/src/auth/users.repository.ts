import { asc, eq, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { brands, starsZones, userGrants, users } from '../db/schema.js';
import { buildGrants, type GrantRow } from './build-grants.js';
import type { Grant } from '@bo/shared/grants';

export type UserRow = typeof users.$inferSelect;

/** Finds a user by user name or e-mail, case-insensitively. */
export async function findUserByLogin(db: Queryable, login: string): Promise<UserRow | undefined> {
  const l = login.trim().toLowerCase();
  const rows = await db
    .select()
    .from(users)
    .where(or(eq(sql`lower(${users.username})`, l), eq(sql`lower(${users.email})`, l)))
    .limit(1);
  return rows[0];
}

export async function findUserByUsername(db: Queryable, username: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  return rows[0];
}

function sessionQuery(db: Queryable) {
  return db
    .select({
      user: users,
      grantRows: sql<GrantRow[]>`COALESCE((SELECT json_agg(json_build_object('grantType', g.grant_type, 'grantCode', g.grant_code, 'permissionType', g.permission_type))
                                           FROM user_grants g WHERE g.user_id = users.user_id), '[]'::json)`,
      // Only an ADMIN's grant names every brand and zone (buildGrants). Columns of the outer row are
      // written out: Drizzle leaves the table name off the columns of a one-table select.
      allBrands: sql<string[] | null>`CASE WHEN upper(users.role) = 'ADMIN' THEN (SELECT json_agg(b.brand_code ORDER BY b.brand_code) FROM brands b) END`,
      allZones: sql<string[] | null>`CASE WHEN upper(users.role) = 'ADMIN' THEN (SELECT json_agg(z.zone_code ORDER BY z.zone_code) FROM stars_zones z) END`,
      // The token was logged out (on any process): one more index probe in the same statement, not a second round trip.
      revoked: sql<boolean>`EXISTS (SELECT 1 FROM revoked_tokens r WHERE r.token_hash = ${sql.placeholder('tokenHash')})`,
    })
    .from(users)
    .where(eq(sql`lower(${users.username})`, sql.placeholder('username')))
    .limit(1)
    .prepare('session_user_with_grants');
}

/** The session statement of each database, built once (see findUserWithGrants). */
const sessionQueries = new WeakMap<Queryable, ReturnType<typeof sessionQuery>>();

/**
 * The user of a session with their grants (as `findUserByUsername` then `loadGrants`), and whether the session's
 * token was logged out (`revoked_tokens`, by `tokenHash`), in one statement:
 * every authenticated call makes it, so one round trip to the database instead of two to four
 * (docs/performance.md, section 1). The statement is built once per database and prepared under a name
 * (PostgreSQL parses and plans it once per connection): building it with the query builder at every call
 * was ~0.2 ms of CPU, a sixth of what an authenticated call costs the server (section 1, "The session statement prepared").
 */
export async function findUserWithGrants(
  db: Queryable,
  username: string,
  tokenHash: string,
): Promise<{ user: UserRow; grants: Grant[]; revoked: boolean } | undefined> {
  let query = sessionQueries.get(db);
  if (!query) sessionQueries.set(db, (query = sessionQuery(db)));
  const [row] = await query.execute({ username: username.toLowerCase(), tokenHash });
  if (!row) return undefined;
  return { user: row.user, grants: buildGrants(row.user.role, row.grantRows, row.allBrands ?? [], row.allZones ?? []), revoked: row.revoked };
}

/** The user's authorisation grants, read fresh from the database (grant changes apply on the next call). */
export async function loadGrants(db: Queryable, user: Pick<UserRow, 'userId' | 'role'>): Promise<Grant[]> {
  if (!user.role) return [];
  const rows = await db
    .select({ grantType: userGrants.grantType, grantCode: userGrants.grantCode, permissionType: userGrants.permissionType })
    .from(userGrants)
    .where(eq(userGrants.userId, user.userId));
  if (user.role.toUpperCase() === 'ADMIN') {
    const [b, z] = await Promise.all([
      db.select({ code: brands.brandCode }).from(brands).orderBy(asc(brands.brandCode)),
      db.select({ code: starsZones.zoneCode }).from(starsZones).orderBy(asc(starsZones.zoneCode)),
    ]);
    return buildGrants(user.role, rows, b.map((r) => r.code), z.map((r) => r.code));
  }
  return buildGrants(user.role, rows, [], []);
}
