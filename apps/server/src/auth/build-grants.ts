import { PERMISSION_TYPES, RULE_CODES, type Grant, type RuleCode } from '@bo/shared/grants';
import { isAdminRole } from '@bo/shared/permissions';

export interface GrantRow {
  grantType: string;
  grantCode: string;
  permissionType: string;
}

/**
 * Turns stored grant rows into the authorisation grants the browser and the permission rules use:
 * one grant per permission level (view, edit, submit) with the brands, stars zones and rules of that level.
 * An ADMIN role gets one grant covering every brand, zone and rule. A user without a role has no grants.
 */
export function buildGrants(role: string | null, rows: readonly GrantRow[], allBrands: readonly string[], allZones: readonly string[]): Grant[] {
  if (!role) return [];
  if (isAdminRole(role)) {
    return [{ role, types: [...PERMISSION_TYPES], rules: [...RULE_CODES], brands: [...allBrands], starsZones: [...allZones] }];
  }
  const grants: Grant[] = [];
  for (const level of PERMISSION_TYPES) {
    const at = rows.filter((r) => r.permissionType === level);
    const brands = at.filter((r) => r.grantType === 'brand').map((r) => r.grantCode).sort();
    const starsZones = at.filter((r) => r.grantType === 'starszone').map((r) => r.grantCode).sort();
    const rules = at
      .filter((r) => r.grantType === 'rule' && (RULE_CODES as readonly string[]).includes(r.grantCode))
      .map((r) => r.grantCode as RuleCode)
      .sort();
    if (brands.length === 0 && starsZones.length === 0) continue;
    grants.push({ role, types: [level], rules, brands, starsZones });
  }
  return grants;
}
