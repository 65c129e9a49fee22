import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { ROLES, type PermissionType } from '@bo/shared/grants';
import type { GrantType, Role, User, UserGrant, UserStatus } from '@bo/shared/users';
import type { Queryable } from '../../db/client.js';
import { allowedEmails, brands, countries, rules, starsZones, userGrants, users } from '../../db/schema.js';

export type UserRecord = typeof users.$inferSelect;

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

export function toUser(row: UserRecord, grants: UserGrant[]): User {
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
export async function findUser(db: Queryable, userId: number, forUpdate = false): Promise<UserRecord | undefined> {
  const query = db.select().from(users).where(eq(users.userId, userId));
  const rows = forUpdate ? await query.for('update') : await query;
  return rows[0];
}

export async function findUsers(db: Queryable, userIds: readonly number[], forUpdate = false): Promise<UserRecord[]> {
  if (userIds.length === 0) return [];
  const query = db
    .select()
    .from(users)
    .where(inArray(users.userId, [...new Set(userIds)]))
    .orderBy(asc(users.userId));
  return forUpdate ? query.for('update') : query;
}

/** A user whose e-mail or user name is `email` (case-insensitive). */
export async function findUserByEmail(db: Queryable, email: string): Promise<UserRecord | undefined> {
  const e = email.toLowerCase();
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${e} OR lower(${users.username}) = ${e}`)
    .limit(1);
  return rows[0];
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
export async function insertUser(db: Queryable, values: { email: string; country: string | null }): Promise<UserRecord> {
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
