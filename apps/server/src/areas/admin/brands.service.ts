/**
 * Manage Brands: the brand side of the users' brand grants. A save sets, for one brand, who holds it
 * at view, edit and submit; edit and submit imply view; every user whose grants change must pass the
 * same rules as the user popup (enabled, with a role, brand and stars zone grants paired per level).
 */
import { brandHolderCounts, isBrandHolderCounted, normalizePermissionMap, type BrandSave, type BrandWithUsers } from '@bo/shared/brands';
import { PERMISSION_TYPES, type PermissionType } from '@bo/shared/grants';
import { describePairingProblem, pairingProblems, PAIRING_RULE } from '@bo/shared/user-grants';
import { USER_TEXTS } from '@bo/shared/users';
import { audit } from '../../lib/audit.repository.js';
import type { Queryable } from '../../db/client.js';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { findUsers, grantsOf, listUsers, replaceBrandGrants, roleOf } from '../../auth/users.repository.js';
import * as repo from './brands.repository.js';

const EMPTY = { view: [], edit: [], submit: [] };

/** Every brand, sorted by brand, with who holds it at each level and how many of them count. */
export async function listBrandsWithUsers(ctx: ServiceContext): Promise<BrandWithUsers[]> {
  const [brands, maps, counted] = await Promise.all([repo.listBrands(ctx.db), repo.permissionMaps(ctx.db), countedUserIds(ctx.db)]);
  return brands.map((b) => withCounts({ ...b, permissionMap: maps.get(b.brand) ?? EMPTY }, counted));
}

/** The users whose holding a brand is counted (isBrandHolderCounted: the users the brand popup lists). */
async function countedUserIds(db: Queryable): Promise<Set<number>> {
  return new Set((await listUsers(db)).filter(isBrandHolderCounted).map((u) => u.userId));
}

const withCounts = (brand: Omit<BrandWithUsers, 'holderCounts'>, counted: ReadonlySet<number>): BrandWithUsers => ({
  ...brand,
  holderCounts: brandHolderCounts(brand.permissionMap, counted),
});

const levelsIn = (map: BrandWithUsers['permissionMap'], userId: number): PermissionType[] =>
  PERMISSION_TYPES.filter((level) => map[level].includes(userId));

export async function saveBrand(ctx: ServiceContext, body: BrandSave): Promise<BrandWithUsers> {
  return ctx.db.transaction(async (tx) => {
    const brand = await repo.findBrand(tx, body.brand);
    if (!brand) throw notFound(`The brand ${body.brand} does not exist`, 'brandNotFound');
    const wanted = normalizePermissionMap(body.permissionMap);
    const current = await repo.permissionMapOf(tx, brand.brand);

    const involved = [...new Set([...wanted.view, ...current.view, ...current.edit, ...current.submit])];
    const changed = involved.filter((id) => levelsIn(wanted, id).join() !== levelsIn(current, id).join());
    // Rows held until the end: a concurrent user save or brand save of these users waits for this one.
    const users = await findUsers(tx, changed, true);
    const missing = changed.filter((id) => !users.some((u) => u.userId === id));
    if (missing.length) {
      throw badRequest(`Unknown users: ${missing.join(', ')}`, [{ path: 'body.permissionMap', message: `Unknown users: ${missing.join(', ')}` }], 'userNotFound');
    }

    const grants = await grantsOf(tx, changed);
    const notEnabled: string[] = [];
    const noRole: string[] = [];
    const unpaired: string[] = [];
    for (const user of users) {
      const levels = levelsIn(wanted, user.userId);
      if (user.status !== 'Enabled') notEnabled.push(user.email);
      if (roleOf(user.role) === null && levels.length > 0) noRole.push(user.email);
      const others = (grants.get(user.userId) ?? []).filter((g) => !(g.grantType === 'brand' && g.grantCode === brand.brand));
      const after = [...others, ...levels.map((permissionType) => ({ grantType: 'brand' as const, grantCode: brand.brand, permissionType }))];
      const problems = pairingProblems(after);
      if (problems.length) unpaired.push(`${user.email} (${problems.map(describePairingProblem).join('; ')})`);
    }
    if (notEnabled.length) throw badRequest(`Grants can be changed only for enabled users: ${notEnabled.join(', ')}.`, undefined, 'userNotEnabled');
    if (noRole.length) throw badRequest(`${USER_TEXTS.noRoleNoGrants} (${noRole.join(', ')})`, undefined, 'noRoleNoGrants');
    if (unpaired.length) throw badRequest(`${PAIRING_RULE}: ${unpaired.join('; ')}.`, undefined, 'grantsUnpaired');

    const changes = [];
    for (const user of users) {
      const before = levelsIn(current, user.userId);
      const after = levelsIn(wanted, user.userId);
      await replaceBrandGrants(tx, user.userId, brand.brand, after);
      changes.push({ userId: user.userId, email: user.email, before, after });
    }
    if (changes.length) {
      await audit(tx, { username: ctx.user.username, action: 'grant-change', itemType: 'brand', itemKey: brand.brand, summary: { changes }, requestId: ctx.requestId });
    }
    return withCounts({ ...brand, permissionMap: await repo.permissionMapOf(tx, brand.brand) }, await countedUserIds(tx));
  });
}
