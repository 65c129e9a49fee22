import { describe, expect, it } from 'vitest';
import { buildGrants } from './build-grants.js';

describe('buildGrants', () => {
  it('gives no grants to a user without a role', () => {
    expect(buildGrants(null, [{ grantType: 'brand', grantCode: 'AUR', permissionType: 'view' }], ['AUR'], ['EU'])).toEqual([]);
  });
  it('gives an admin every brand, zone, type and rule', () => {
    expect(buildGrants('ADMIN', [], ['AUR', 'VLT'], ['EU'])).toEqual([
      { role: 'ADMIN', types: ['view', 'edit', 'submit'], rules: ['reopen', 'create', 'delete', 'import'], brands: ['AUR', 'VLT'], starsZones: ['EU'] },
    ]);
  });
  it('builds one grant per level with its brands, zones and rules', () => {
    const rows = [
      { grantType: 'brand', grantCode: 'AUR', permissionType: 'view' },
      { grantType: 'brand', grantCode: 'VLT', permissionType: 'view' },
      { grantType: 'starszone', grantCode: 'EU', permissionType: 'view' },
      { grantType: 'brand', grantCode: 'AUR', permissionType: 'edit' },
      { grantType: 'starszone', grantCode: 'EU', permissionType: 'edit' },
      { grantType: 'rule', grantCode: 'create', permissionType: 'edit' },
      { grantType: 'rule', grantCode: 'bogus', permissionType: 'edit' },
    ];
    expect(buildGrants('EDITOR', rows, [], [])).toEqual([
      { role: 'EDITOR', types: ['view'], rules: [], brands: ['AUR', 'VLT'], starsZones: ['EU'] },
      { role: 'EDITOR', types: ['edit'], rules: ['create'], brands: ['AUR'], starsZones: ['EU'] },
    ]);
  });
  it('has no grants when a role holds no brand or zone', () => {
    expect(buildGrants('VIEWER', [{ grantType: 'rule', grantCode: 'create', permissionType: 'edit' }], [], [])).toEqual([]);
  });
});
