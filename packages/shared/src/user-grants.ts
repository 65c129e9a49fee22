/**
 * The rules on a user's stored grant rows (spec part 1 §5 and §6), used by the server (which enforces
 * them) and by the permission popups (which apply them as the admin clicks):
 * - granting edit or submit on a brand or stars zone also grants view (not for rules);
 * - view cannot be removed while a higher level on the same code remains;
 * - for each of view, edit and submit, brand grants and stars zone grants are both present or both absent.
 */
import { PERMISSION_TYPES, type PermissionType } from './grants.js';
import { GRANT_TYPES, type GrantType } from './users.js';

export interface GrantRowLike {
  grantType: GrantType;
  grantCode: string;
  permissionType: PermissionType;
}

/** Types whose edit and submit levels imply view. */
const IMPLIES_VIEW: readonly GrantType[] = ['brand', 'starszone'];

export const grantRowKey = (g: GrantRowLike) => `${g.grantType}|${g.grantCode}|${g.permissionType}`;

const typeOrder = (t: GrantType) => GRANT_TYPES.indexOf(t);
const levelOrder = (p: PermissionType) => PERMISSION_TYPES.indexOf(p);

/** Type (brand, starszone, rule), then level (view, edit, submit), then code. */
function compareGrantRows(a: GrantRowLike, b: GrantRowLike): number {
  return (
    typeOrder(a.grantType) - typeOrder(b.grantType) ||
    levelOrder(a.permissionType) - levelOrder(b.permissionType) ||
    a.grantCode.localeCompare(b.grantCode)
  );
}

/** The rows without duplicates, with the view rows that edit and submit imply, in a stable order. */
export function withImpliedView<T extends GrantRowLike>(rows: readonly T[], make: (implied: GrantRowLike) => T): T[] {
  const out = new Map<string, T>();
  for (const row of rows) out.set(grantRowKey(row), row);
  for (const row of rows) {
    if (row.permissionType === 'view' || !IMPLIES_VIEW.includes(row.grantType)) continue;
    const view: GrantRowLike = { grantType: row.grantType, grantCode: row.grantCode, permissionType: 'view' };
    if (!out.has(grantRowKey(view))) out.set(grantRowKey(view), make(view));
  }
  return [...out.values()].sort(compareGrantRows);
}

interface PairingProblem {
  level: PermissionType;
  /** What the level lacks: brands (it has stars zones) or stars zones (it has brands). */
  missing: 'brand' | 'starszone';
}

/** The levels where brand and stars zone grants are not both present or both absent. */
export function pairingProblems(rows: readonly GrantRowLike[]): PairingProblem[] {
  const problems: PairingProblem[] = [];
  for (const level of PERMISSION_TYPES) {
    const brands = rows.some((r) => r.permissionType === level && r.grantType === 'brand');
    const zones = rows.some((r) => r.permissionType === level && r.grantType === 'starszone');
    if (brands && !zones) problems.push({ level, missing: 'starszone' });
    if (zones && !brands) problems.push({ level, missing: 'brand' });
  }
  return problems;
}

export const PAIRING_RULE =
  'For each of view, edit and submit, brand grants and stars zone grants must be both present or both absent';

/** 'edit has brands but no stars zones' */
export function describePairingProblem(p: PairingProblem): string {
  return p.missing === 'starszone' ? `${p.level} has brands but no stars zones` : `${p.level} has stars zones but no brands`;
}

/** The save-rule message: the rule, then what is wrong, e.g. '…: edit has brands but no stars zones.' */
export function pairingMessage(problems: readonly PairingProblem[]): string {
  return `${PAIRING_RULE}: ${problems.map(describePairingProblem).join('; ')}.`;
}

/** The levels at which the rows hold `code` of `type`. */
function levelsOf(rows: readonly GrantRowLike[], grantType: GrantType, grantCode: string): PermissionType[] {
  return PERMISSION_TYPES.filter((level) =>
    rows.some((r) => r.grantType === grantType && r.grantCode === grantCode && r.permissionType === level),
  );
}

/** Is view on this code held because edit or submit needs it? (Then it cannot be removed.) */
export function isViewLocked(rows: readonly GrantRowLike[], grantType: GrantType, grantCode: string): boolean {
  if (!IMPLIES_VIEW.includes(grantType)) return false;
  return levelsOf(rows, grantType, grantCode).some((l) => l !== 'view');
}

/**
 * Sets or clears a grant as the popups do: adding edit or submit adds view too; removing view while
 * a higher level remains does nothing (blocked). Returns new rows (same order rules as withImpliedView).
 */
export function setGrant<T extends GrantRowLike>(
  rows: readonly T[],
  grant: GrantRowLike,
  on: boolean,
  make: (g: GrantRowLike) => T,
): T[] {
  const key = grantRowKey(grant);
  if (on) return withImpliedView([...rows, make(grant)], make);
  if (grant.permissionType === 'view' && isViewLocked(rows, grant.grantType, grant.grantCode)) return [...rows];
  return rows.filter((r) => grantRowKey(r) !== key);
}

/**
 * Sets or clears every code of a type at a level (the ALL chip). Clearing view keeps the codes whose
 * view a higher level needs.
 */
export function setAllGrants<T extends GrantRowLike>(
  rows: readonly T[],
  grantType: GrantType,
  permissionType: PermissionType,
  codes: readonly string[],
  on: boolean,
  make: (g: GrantRowLike) => T,
): T[] {
  let out = [...rows];
  for (const grantCode of codes) out = setGrant(out, { grantType, grantCode, permissionType }, on, make);
  return out;
}
