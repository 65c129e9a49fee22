/**
 * Manage Brands (spec part 1 §2, §3 "Brand permission map", §6, §7, §8): who holds each brand at
 * view, edit and submit. The same data as the users' brand grants (user_grants rows of type 'brand').
 */
import { z } from 'zod';
import type { PermissionType } from './grants.js';
import { int4Id } from './numbers.js';
import { isAdminRole } from './permissions.js';

const userIds = z.array(int4Id()).max(10_000);

const permissionMapSchema = z.object({ view: userIds, edit: userIds, submit: userIds });
export type PermissionMap = z.infer<typeof permissionMapSchema>;

/** How many users count at each level (brandHolderCounts). */
const holderCountsSchema = z.object({ view: z.number().int(), edit: z.number().int(), submit: z.number().int() });
type HolderCounts = z.infer<typeof holderCountsSchema>;

export const brandWithUsersSchema = z.object({
  brand: z.string(),
  description: z.string(),
  /** Every holder (disabled users and administrators too): what a save keeps for the users it does not list. */
  permissionMap: permissionMapSchema,
  /** The counts Manage Brands shows (brandHolderCounts), computed by the server. */
  holderCounts: holderCountsSchema,
});
export type BrandWithUsers = z.infer<typeof brandWithUsersSchema>;

/** POST /brand/save: the brand and its whole permission map (the description is not changed here). */
export const brandSaveSchema = z.object({
  brand: z.string().min(1).max(20),
  description: z.string().max(200).optional(),
  permissionMap: permissionMapSchema,
});
export type BrandSave = z.infer<typeof brandSaveSchema>;

export const BRAND_TEXTS = {
  updated: 'Grants updated correctly',
  failed: 'Error during grants update',
  empty: 'No brands found.',
} as const;

/** The grants message stays 3 seconds (part 1 §9), shorter than other flash messages. */
export const GRANTS_MESSAGE_MS = 3000;

const sortedUnique = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** Edit and submit imply view: view holds every user of edit and submit. Lists come back sorted, without repeats. */
export function normalizePermissionMap(map: PermissionMap): PermissionMap {
  return {
    view: sortedUnique([...map.view, ...map.edit, ...map.submit]),
    edit: sortedUnique(map.edit),
    submit: sortedUnique(map.submit),
  };
}

/**
 * Gives or takes one level of the brand from one user, as the brand popup does: giving edit or
 * submit gives view too; taking view while the user keeps edit or submit is blocked (no change).
 */
export function setPermission(map: PermissionMap, userId: number, level: PermissionType, on: boolean): PermissionMap {
  if (on) return normalizePermissionMap({ ...map, [level]: [...map[level], userId] });
  if (level === 'view' && (map.edit.includes(userId) || map.submit.includes(userId))) return map;
  return { ...map, [level]: map[level].filter((id) => id !== userId) };
}

/** The all-select of a tab: gives or takes the level from every user of `userIds`. */
export function setPermissionForAll(map: PermissionMap, userIds: readonly number[], level: PermissionType, on: boolean): PermissionMap {
  return userIds.reduce((acc, id) => setPermission(acc, id, level, on), map);
}

/** Is view held because edit or submit needs it? */
export const isViewRequired = (map: PermissionMap, userId: number) => map.edit.includes(userId) || map.submit.includes(userId);

/**
 * Who a brand is given to in Manage Brands, and so who is counted: enabled users with a role, not
 * administrators (who hold every brand). GET /api/user/allCreators lists them; the brand popup lists them.
 */
export const isBrandHolderCounted = (user: { status: string; role: string | null }) => user.status === 'Enabled' && user.role !== null && !isAdminRole(user.role);

/**
 * The one count of a brand's holders per level (issue 34 item 10): the users of `counted`
 * (isBrandHolderCounted) in the map. The brands list shows it as the server computed it; the popup computes
 * it on the map being edited, with the users it lists, so both say the same number. Disabled users and
 * administrators who still hold the brand are not counted (the popup names how many there are).
 */
export function brandHolderCounts(map: PermissionMap, counted: ReadonlySet<number>): HolderCounts {
  const count = (level: PermissionType) => map[level].filter((id) => counted.has(id)).length;
  return { view: count('view'), edit: count('edit'), submit: count('submit') };
}
