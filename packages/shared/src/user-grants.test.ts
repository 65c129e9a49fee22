import { describe, expect, it } from 'vitest';
import {
  type GrantRowLike,
  isViewLocked,
  pairingMessage,
  pairingProblems,
  setAllGrants,
  setGrant,
  withImpliedView,
} from './user-grants.js';

const g = (grantType: GrantRowLike['grantType'], grantCode: string, permissionType: GrantRowLike['permissionType']): GrantRowLike => ({
  grantType,
  grantCode,
  permissionType,
});
const same = (x: GrantRowLike) => x;
const keys = (rows: readonly GrantRowLike[]) => rows.map((r) => `${r.grantType}:${r.grantCode}:${r.permissionType}`);

describe('implied view', () => {
  it('adds view for brands and zones granted at edit or submit, not for rules, without duplicates', () => {
    const rows = withImpliedView([g('brand', 'AUR', 'edit'), g('starszone', 'EU', 'submit'), g('rule', 'create', 'edit'), g('brand', 'AUR', 'edit')], same);
    expect(keys(rows)).toEqual(['brand:AUR:view', 'brand:AUR:edit', 'starszone:EU:view', 'starszone:EU:submit', 'rule:create:edit']);
  });

  it('setGrant adds view with edit, and blocks removing view while edit remains', () => {
    let rows = setGrant([], g('brand', 'AUR', 'edit'), true, same);
    expect(keys(rows)).toEqual(['brand:AUR:view', 'brand:AUR:edit']);
    expect(isViewLocked(rows, 'brand', 'AUR')).toBe(true);
    expect(keys(setGrant(rows, g('brand', 'AUR', 'view'), false, same))).toEqual(keys(rows));
    rows = setGrant(rows, g('brand', 'AUR', 'edit'), false, same);
    expect(isViewLocked(rows, 'brand', 'AUR')).toBe(false);
    expect(keys(setGrant(rows, g('brand', 'AUR', 'view'), false, same))).toEqual([]);
  });

  it('rules never lock view', () => {
    const rows = [g('rule', 'delete', 'submit'), g('rule', 'delete', 'view')];
    expect(isViewLocked(rows, 'rule', 'delete')).toBe(false);
    expect(keys(setGrant(rows, g('rule', 'delete', 'view'), false, same))).toEqual(['rule:delete:submit']);
  });

  it('the ALL chip sets every code, and clearing view keeps what a higher level needs', () => {
    let rows = setAllGrants([], 'starszone', 'view', ['EU', 'NA', 'APAC'], true, same);
    rows = setGrant(rows, g('starszone', 'NA', 'submit'), true, same);
    rows = setAllGrants(rows, 'starszone', 'view', ['EU', 'NA', 'APAC'], false, same);
    expect(keys(rows).sort()).toEqual(['starszone:NA:submit', 'starszone:NA:view']);
  });
});

describe('pairing rule', () => {
  it('wants brands and zones both present or both absent at each level', () => {
    expect(pairingProblems([])).toEqual([]);
    expect(pairingProblems([g('brand', 'AUR', 'view'), g('starszone', 'EU', 'view'), g('rule', 'create', 'edit')])).toEqual([]);
    const problems = pairingProblems([g('brand', 'AUR', 'view'), g('starszone', 'EU', 'view'), g('brand', 'AUR', 'edit'), g('starszone', 'EU', 'submit')]);
    expect(problems).toEqual([
      { level: 'edit', missing: 'starszone' },
      { level: 'submit', missing: 'brand' },
    ]);
    expect(pairingMessage(problems)).toBe(
      'For each of view, edit and submit, brand grants and stars zone grants must be both present or both absent: edit has brands but no stars zones; submit has stars zones but no brands.',
    );
  });
});
