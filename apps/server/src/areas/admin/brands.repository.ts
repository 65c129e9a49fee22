import { and, asc, eq } from 'drizzle-orm';
import type { PermissionMap } from '@bo/shared/brands';
import type { PermissionType } from '@bo/shared/grants';
import type { Queryable } from '../../db/client.js';
import { brands, userGrants } from '../../db/schema.js';

export const listBrands = (db: Queryable) =>
  db.select({ brand: brands.brandCode, description: brands.description }).from(brands).orderBy(asc(brands.brandCode));

export async function findBrand(db: Queryable, brandCode: string) {
  const rows = await db.select({ brand: brands.brandCode, description: brands.description }).from(brands).where(eq(brands.brandCode, brandCode));
  return rows[0];
}

const emptyMap = (): PermissionMap => ({ view: [], edit: [], submit: [] });

/** Who holds each brand at each level (from the users' brand grant rows), by brand code. */
export async function permissionMaps(db: Queryable, brandCode?: string): Promise<Map<string, PermissionMap>> {
  const rows = await db
    .select({ brand: userGrants.grantCode, userId: userGrants.userId, level: userGrants.permissionType })
    .from(userGrants)
    .where(and(eq(userGrants.grantType, 'brand'), brandCode ? eq(userGrants.grantCode, brandCode) : undefined))
    .orderBy(asc(userGrants.userId));
  const out = new Map<string, PermissionMap>();
  for (const r of rows) {
    const map = out.get(r.brand) ?? emptyMap();
    map[r.level as PermissionType]?.push(r.userId);
    out.set(r.brand, map);
  }
  return out;
}

export const permissionMapOf = async (db: Queryable, brandCode: string) => (await permissionMaps(db, brandCode)).get(brandCode) ?? emptyMap();
