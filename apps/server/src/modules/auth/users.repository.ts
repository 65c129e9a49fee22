import { asc, eq, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { brands, starsZones, userGrants, users } from '../../db/schema.js';
import { buildGrants } from './build-grants.js';
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
