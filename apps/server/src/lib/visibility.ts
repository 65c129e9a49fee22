import type { Grant, PermissionType } from '@bo/shared/grants';
import { isAdmin } from '@bo/shared/permissions';

/**
 * What a caller may see (or edit), as the SQL of a search needs it. A grant matches an item when it
 * holds the item's brand and one of the item's stars zones, or the brand alone for an item without
 * zones (packages/shared/src/permissions.ts): so the grants become (brand, zone) pairs, written
 * 'BRAND|ZONE', plus the brands for zone-less items.
 */
export type Visibility = { all: true } | { all: false; pairs: string[]; brands: string[] };

const VIEW_LEVELS: readonly PermissionType[] = ['view', 'edit', 'submit'];

export function visibilityOf(grants: readonly Grant[], levels: readonly PermissionType[] = VIEW_LEVELS): Visibility {
  if (isAdmin(grants)) return { all: true };
  const pairs = new Set<string>();
  const brands = new Set<string>();
  for (const g of grants) {
    if (!g.types.some((t) => levels.includes(t))) continue;
    for (const b of g.brands) {
      brands.add(b);
      for (const z of g.starsZones) pairs.add(`${b}|${z}`);
    }
  }
  return { all: false, pairs: [...pairs].sort(), brands: [...brands].sort() };
}

/** The brands and zones a caller holds at any level (the initial filter options). */
export function grantedCodes(grants: readonly Grant[]): { brands: Set<string>; zones: Set<string> } | 'all' {
  if (isAdmin(grants)) return 'all';
  const brands = new Set<string>();
  const zones = new Set<string>();
  for (const g of grants) {
    g.brands.forEach((b) => brands.add(b));
    g.starsZones.forEach((z) => zones.add(z));
  }
  return { brands, zones };
}
