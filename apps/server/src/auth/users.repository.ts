/**
 * The users table and its grant rows, for login and every call's session (auth/) and for Manage Users and
 * Manage Brands (areas/admin, which reads and writes them through this file).
 */
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { ROLES, type Grant, type PermissionType } from '@bo/shared/grants';
import { isAdminRole } from '@bo/shared/permissions';
import type { GrantType, Role, User, UserGrant, UserStatus } from '@bo/shared/users';
import { preparedOnce, type Queryable } from '../db/client.js';
import { allowedEmails, brands, countries, rules, starsZones, userGrants, users } from '../db/schema.js';
import { buildGrants, type GrantRow } from './build-grants.js';

export type UserRow = typeof users.$inferSelect;

/** isAdminRole (@bo/shared/permissions) in SQL, for a statement that must ask it of a stored role column. */
const isAdminRoleSql = (role: SQL) => sql`upper(${role}) = 'ADMIN'`;
/** The outer row's role column of the session statement, written out (see sessionQuery). */
const SESSION_ROLE = sql.raw('users.role');

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
      allBrands: sql<string[] | null>`CASE WHEN ${isAdminRoleSql(SESSION_ROLE)} THEN (SELECT json_agg(b.brand_code ORDER BY b.brand_code) FROM brands b) END`,
      allZones: sql<string[] | null>`CASE WHEN ${isAdminRoleSql(SESSION_ROLE)} THEN (SELECT json_agg(z.zone_code ORDER BY z.zone_code) FROM stars_zones z) END`,
      // The token was logged out (on any process): one more index probe in the same statement, not a second round trip.
      revoked: sql<boolean>`EXISTS (SELECT 1 FROM revoked_tokens r WHERE r.token_hash = ${sql.placeholder('tokenHash')})`,
    })
    .from(users)
    .where(eq(sql`lower(${users.username})`, sql.placeholder('username')))
    .limit(1);
}

/**
 * The user of a session with their grants (as `findUserByUsername` then `loadGrants`), and whether the session's
 * token was logged out (`revoked_tokens`, by `tokenHash`), in one statement:
 * every authenticated call makes it, so one round trip to the database instead of two to four
 * (docs/performance.md, section 1). The statement is built once per database and prepared under a name
 * (`preparedOnce`; PostgreSQL parses and plans it once per connection): building it with the query builder at every
 * call was ~0.2 ms of CPU, a sixth of what an authenticated call costs the server (section 1, "The session statement prepared").
 */
export async function findUserWithGrants(
  db: Queryable,
  username: string,
  tokenHash: string,
): Promise<{ user: UserRow; grants: Grant[]; revoked: boolean } | undefined> {
  const [row] = await preparedOnce(db, 'session_user_with_grants', sessionQuery, { username: username.toLowerCase(), tokenHash });
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
  if (isAdminRole(user.role)) {
    const [b, z] = await Promise.all([
      db.select({ code: brands.brandCode }).from(brands).orderBy(asc(brands.brandCode)),
      db.select({ code: starsZones.zoneCode }).from(starsZones).orderBy(asc(starsZones.zoneCode)),
    ]);
    return buildGrants(user.role, rows, b.map((r) => r.code), z.map((r) => r.code));
  }
  return buildGrants(user.role, rows, [], []);
}

/** Roles compare case-insensitively (part 1 §6); anything unknown reads as no role. */
export function roleOf(stored: string | null): Role | null {
  if (!stored) return null;
  return ROLES.find((r) => r === stored.toUpperCase()) ?? null;
}

const toGrant = (userId: number, g: { grantType: string; grantCode: string; permissionType: string }): UserGrant => ({
  grantCode: g.grantCode,
  grantType: g.grantType as GrantType,
  permissionType: g.permissionType as PermissionType,
  userId,
});

/** The stored grant rows of these users, by user. */
export async function grantsOf(db: Queryable, userIds: readonly number[]): Promise<Map<number, UserGrant[]>> {
  const out = new Map<number, UserGrant[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await db
    .select()
    .from(userGrants)
    .where(inArray(userGrants.userId, [...new Set(userIds)]))
    .orderBy(asc(userGrants.grantType), asc(userGrants.permissionType), asc(userGrants.grantCode));
  for (const r of rows) out.get(r.userId)?.push(toGrant(r.userId, r));
  return out;
}

export function toUser(row: UserRow, grants: UserGrant[]): User {
  return {
    userId: row.userId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    status: row.status as UserStatus,
    role: roleOf(row.role),
    country: row.country,
    grants,
  };
}

/** Users sorted by e-mail, with their grants. */
export async function listUsers(db: Queryable): Promise<User[]> {
  const rows = await db
    .select()
    .from(users)
    .orderBy(asc(sql`lower(${users.email})`));
  const grants = await grantsOf(db, rows.map((r) => r.userId));
  return rows.map((r) => toUser(r, grants.get(r.userId) ?? []));
}

/** One user; `forUpdate` holds the row until the transaction ends (concurrent grant changes wait). */
export async function findUser(db: Queryable, userId: number, forUpdate = false): Promise<UserRow | undefined> {
  const query = db.select().from(users).where(eq(users.userId, userId));
  const rows = forUpdate ? await query.for('update') : await query;
  return rows[0];
}

export async function findUsers(db: Queryable, userIds: readonly number[], forUpdate = false): Promise<UserRow[]> {
  if (userIds.length === 0) return [];
  const query = db
    .select()
    .from(users)
    .where(inArray(users.userId, [...new Set(userIds)]))
    .orderBy(asc(users.userId));
  return forUpdate ? query.for('update') : query;
}

/** Is the e-mail on the identity provider's list? */
export async function isAllowedEmail(db: Queryable, email: string): Promise<boolean> {
  const rows = await db
    .select({ email: allowedEmails.email })
    .from(allowedEmails)
    .where(eq(sql`lower(${allowedEmails.email})`, email.toLowerCase()))
    .limit(1);
  return rows.length > 0;
}

export async function countryExists(db: Queryable, countryCode: string): Promise<boolean> {
  const rows = await db.select({ c: countries.countryCode }).from(countries).where(eq(countries.countryCode, countryCode)).limit(1);
  return rows.length > 0;
}

/** A new user waiting for a role and grants: status New, no password (the provider authenticates). */
export async function insertUser(db: Queryable, values: { email: string; country: string | null }): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ username: values.email, email: values.email, country: values.country, status: 'New', role: null })
    .returning();
  return row!;
}

export async function updateUser(db: Queryable, userId: number, values: { status?: UserStatus; role?: Role | null }): Promise<void> {
  await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.userId, userId));
}

/** The codes a grant may name, by type. */
export async function grantableCodes(db: Queryable): Promise<Record<GrantType, Set<string>>> {
  const [b, z, r] = await Promise.all([
    db.select({ code: brands.brandCode }).from(brands),
    db.select({ code: starsZones.zoneCode }).from(starsZones),
    db.select({ code: rules.ruleCode }).from(rules),
  ]);
  return {
    brand: new Set(b.map((x) => x.code)),
    starszone: new Set(z.map((x) => x.code)),
    rule: new Set(r.map((x) => x.code)),
  };
}

/** Replaces all of a user's grant rows. */
export async function replaceGrants(db: Queryable, userId: number, grants: readonly Omit<UserGrant, 'userId'>[]): Promise<void> {
  await db.delete(userGrants).where(eq(userGrants.userId, userId));
  if (grants.length) await db.insert(userGrants).values(grants.map((g) => ({ ...g, userId })));
}

/** Replaces the rows of one brand for one user (the brand popup's change). */
export async function replaceBrandGrants(db: Queryable, userId: number, brandCode: string, levels: readonly PermissionType[]): Promise<void> {
  await db
    .delete(userGrants)
    .where(and(eq(userGrants.userId, userId), eq(userGrants.grantType, 'brand'), eq(userGrants.grantCode, brandCode)));
  if (levels.length)
    await db.insert(userGrants).values(levels.map((permissionType) => ({ userId, grantType: 'brand', grantCode: brandCode, permissionType })));
}
