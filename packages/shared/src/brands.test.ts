import { describe, expect, it } from 'vitest';
import { brandHolderCounts, isBrandHolderCounted, isViewRequired, normalizePermissionMap, setPermission, setPermissionForAll } from './brands.js';

const empty = { view: [], edit: [], submit: [] };

describe('brand permission map', () => {
  it('giving edit or submit gives view; lists are sorted and unique', () => {
    expect(normalizePermissionMap({ view: [3, 1], edit: [2, 2], submit: [4] })).toEqual({ view: [1, 2, 3, 4], edit: [2], submit: [4] });
    expect(setPermission(empty, 7, 'edit', true)).toEqual({ view: [7], edit: [7], submit: [] });
  });

  it('taking view is blocked while edit or submit remains', () => {
    const map = setPermission(empty, 7, 'submit', true);
    expect(isViewRequired(map, 7)).toBe(true);
    expect(setPermission(map, 7, 'view', false)).toEqual(map);
    const noSubmit = setPermission(map, 7, 'submit', false);
    expect(setPermission(noSubmit, 7, 'view', false)).toEqual(empty);
  });

  it('the all-select of a tab gives or takes the level from every user', () => {
    const all = setPermissionForAll(empty, [1, 2, 3], 'edit', true);
    expect(all).toEqual({ view: [1, 2, 3], edit: [1, 2, 3], submit: [] });
    expect(setPermissionForAll(all, [1, 2, 3], 'edit', false)).toEqual({ view: [1, 2, 3], edit: [], submit: [] });
    expect(setPermissionForAll(all, [1, 2, 3], 'view', false)).toEqual(all);
  });
});

describe('brandHolderCounts', () => {
  it('counts at each level only the users counted (enabled, with a role, not administrators)', () => {
    const map = { view: [1, 2, 3, 4], edit: [1, 3], submit: [3] };
    expect(brandHolderCounts(map, new Set([1, 2]))).toEqual({ view: 2, edit: 1, submit: 0 });
    expect([{ status: 'Enabled', role: 'EDITOR' }, { status: 'Disabled', role: 'EDITOR' }, { status: 'Enabled', role: 'ADMIN' }, { status: 'Enabled', role: null }].map(isBrandHolderCounted)).toEqual([true, false, false, false]);
  });
});
