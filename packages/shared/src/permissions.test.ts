import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Grant } from './grants.js';
import * as p from './permissions.js';

const g = (over: Partial<Grant>): Grant => ({ role: 'EDITOR', types: [], rules: [], brands: [], starsZones: [], ...over });
const admin: Grant[] = [g({ role: 'Admin', types: ['view'] })];
const aurEu = { brand: 'AUR', zones: ['EU'] };
const aurNa = { brand: 'AUR', zones: ['NA'] };
const vltEu = { brand: 'VLT', zones: ['EU'] };

describe('admin (first grant role, case-insensitive)', () => {
  it('is admin when the first grant says admin in any case', () => {
    expect(p.isAdmin([g({ role: 'admin' })])).toBe(true);
    expect(p.isAdmin([g({ role: 'ADMIN' })])).toBe(true);
    expect(p.isAdmin([g({ role: 'EDITOR' }), g({ role: 'ADMIN' })])).toBe(false);
    expect(p.isAdmin([])).toBe(false);
  });
  it('may do everything, on every brand and zone', () => {
    for (const check of [p.canView, p.canEdit, p.canPublish, p.canCopy, p.canCreate, p.canReopen, p.canDelete, p.canExport, p.canImportItem]) {
      expect(check(admin, vltEu)).toBe(true);
    }
    expect(p.canAdminister(admin)).toBe(true);
    expect(p.canImportAny(admin)).toBe(true);
    expect(p.canUseCopyPopup(admin) && p.canSaveInCopy(admin) && p.canSavePublishInCopy(admin)).toBe(true);
  });
  it('nobody else administers', () => {
    expect(p.canAdminister([g({ role: 'CREATOR', types: ['view', 'edit', 'submit'], brands: ['AUR'], starsZones: ['EU'] })])).toBe(false);
  });
});

describe('edit, save and remove need an edit grant matching brand and zone', () => {
  const grants = [g({ types: ['view'], brands: ['AUR', 'VLT'], starsZones: ['EU', 'NA'] }), g({ types: ['edit'], brands: ['AUR'], starsZones: ['EU'] })];
  it('matches brand and zone', () => {
    expect(p.canEdit(grants, aurEu)).toBe(true);
    expect(p.canEdit(grants, aurNa)).toBe(false);
    expect(p.canEdit(grants, vltEu)).toBe(false);
  });
  it('matches when one of several item zones is granted', () => {
    expect(p.canEdit(grants, { brand: 'AUR', zones: ['NA', 'EU'] })).toBe(true);
  });
  it('view comes from any level', () => {
    expect(p.canView(grants, vltEu)).toBe(true);
    expect(p.canView(grants, { brand: 'MRA', zones: ['EU'] })).toBe(false);
  });
  it('a view-only grant neither edits nor publishes', () => {
    const viewer = [g({ role: 'VIEWER', types: ['view'], brands: ['AUR'], starsZones: ['EU'] })];
    expect(p.canEdit(viewer, aurEu)).toBe(false);
    expect(p.canPublish(viewer, aurEu)).toBe(false);
    expect(p.canCopy(viewer, aurEu)).toBe(false);
  });
});

describe('publish is shown to admin or to submit grants matching brand and zone', () => {
  const grants = [g({ role: 'SUBMITTER', types: ['submit'], brands: ['AUR'], starsZones: ['EU'] })];
  it('needs submit on the brand and zone', () => {
    expect(p.canPublish(grants, aurEu)).toBe(true);
    expect(p.canPublish(grants, aurNa)).toBe(false);
    expect(p.canPublish([g({ types: ['edit'], brands: ['AUR'], starsZones: ['EU'] })], aurEu)).toBe(false);
  });
});

describe('copy needs a matching edit or submit grant', () => {
  it('edit or submit both count', () => {
    expect(p.canCopy([g({ types: ['edit'], brands: ['AUR'], starsZones: ['EU'] })], aurEu)).toBe(true);
    expect(p.canCopy([g({ types: ['submit'], brands: ['AUR'], starsZones: ['EU'] })], aurEu)).toBe(true);
    expect(p.canCopy([g({ types: ['submit'], brands: ['AUR'], starsZones: ['EU'] })], vltEu)).toBe(false);
  });
});

describe('create, reopen and delete rules are checked per brand and zone on an edit grant', () => {
  const grants = [g({ types: ['edit'], rules: ['create', 'reopen', 'delete'], brands: ['AUR'], starsZones: ['EU'] })];
  it('applies on the matching brand and zone only', () => {
    for (const check of [p.canCreate, p.canReopen, p.canDelete]) {
      expect(check(grants, aurEu)).toBe(true);
      expect(check(grants, aurNa)).toBe(false);
      expect(check(grants, vltEu)).toBe(false);
    }
  });
  it('an edit grant without the rule does not create, reopen or delete', () => {
    const plain = [g({ types: ['edit'], brands: ['AUR'], starsZones: ['EU'] })];
    expect(p.canCreate(plain, aurEu) || p.canReopen(plain, aurEu) || p.canDelete(plain, aurEu)).toBe(false);
  });
  it('create is checked for the selected brand when no zone is given', () => {
    expect(p.canCreate(grants, { brand: 'AUR' })).toBe(true);
    expect(p.canCreate(grants, { brand: 'VLT' })).toBe(false);
  });
});

describe('delete: submit with the delete rule counts; other roles only with the rule', () => {
  it('submit + delete rule', () => {
    expect(p.canDelete([g({ role: 'SUBMITTER', types: ['submit'], rules: ['delete'], brands: ['AUR'], starsZones: ['EU'] })], aurEu)).toBe(true);
  });
  it('submit without the rule cannot delete', () => {
    expect(p.canDelete([g({ role: 'SUBMITTER', types: ['submit'], brands: ['AUR'], starsZones: ['EU'] })], aurEu)).toBe(false);
  });
});

describe('import: admin, or edit with rule import', () => {
  it('gates the Import Data button', () => {
    expect(p.canImportAny([g({ types: ['edit'], rules: ['import'], brands: ['AUR'], starsZones: ['EU'] })])).toBe(true);
    expect(p.canImportAny([g({ types: ['edit'], brands: ['AUR'], starsZones: ['EU'] })])).toBe(false);
    expect(p.canImportAny([g({ types: ['view'], rules: ['import'], brands: ['AUR'], starsZones: ['EU'] })])).toBe(false);
  });
  it('per item needs the brand and zone too', () => {
    const grants = [g({ types: ['edit'], rules: ['import'], brands: ['AUR'], starsZones: ['EU'] })];
    expect(p.canImportItem(grants, aurEu)).toBe(true);
    expect(p.canImportItem(grants, vltEu)).toBe(false);
  });
});

describe('export: admin, or edit with a matching brand and zone', () => {
  it('needs edit on the item', () => {
    const grants = [g({ types: ['edit'], brands: ['AUR'], starsZones: ['EU'] })];
    expect(p.canExport(grants, aurEu)).toBe(true);
    expect(p.canExport(grants, aurNa)).toBe(false);
    expect(p.canExportAny(grants)).toBe(true);
    expect(p.canExportAny([g({ types: ['view'], brands: ['AUR'], starsZones: ['EU'] })])).toBe(false);
  });
});

describe('copy popup: Save needs admin or creator with edit; Save & Publish admin or creator with submit', () => {
  it('creator with edit saves but does not publish', () => {
    const creatorEdit = [g({ role: 'CREATOR', types: ['edit'], brands: ['AUR'], starsZones: ['EU'] })];
    expect(p.canUseCopyPopup(creatorEdit)).toBe(true);
    expect(p.canSaveInCopy(creatorEdit)).toBe(true);
    expect(p.canSavePublishInCopy(creatorEdit)).toBe(false);
  });
  it('creator role compares case-insensitively', () => {
    expect(p.canSavePublishInCopy([g({ role: 'creator', types: ['submit'], brands: ['AUR'], starsZones: ['EU'] })])).toBe(true);
  });
  it('an editor (not creator) gets COPY disabled', () => {
    const editor = [g({ role: 'EDITOR', types: ['edit', 'submit'], brands: ['AUR'], starsZones: ['EU'] })];
    expect(p.canUseCopyPopup(editor)).toBe(false);
    expect(p.canSaveInCopy(editor)).toBe(false);
  });
});

describe('read-only states', () => {
  const editor = [g({ types: ['edit'], brands: ['AUR'], starsZones: ['EU'] })];
  const reopener = [g({ types: ['edit'], rules: ['reopen'], brands: ['AUR'], starsZones: ['EU'] })];
  it('SUBMIT_IN_PROGRESS blocks everyone, admin included', () => {
    expect(p.moduleReadOnlyReason(admin, 'admin', aurEu, { status: 'SUBMIT_IN_PROGRESS' })).toBe('submitInProgress');
    expect(p.clusterReadOnlyReason(admin, 'admin', aurEu, { status: 'SUBMIT_IN_PROGRESS' })).toBe('submitInProgress');
  });
  it('SUBMITTED modules need the reopen rule', () => {
    expect(p.moduleReadOnlyReason(editor, 'ed', aurEu, { status: 'SUBMITTED' })).toBe('submittedNoReopen');
    expect(p.moduleReadOnlyReason(reopener, 'ed', aurEu, { status: 'SUBMITTED' })).toBeNull();
  });
  it('SUBMITTED clusters need a matching grant only', () => {
    expect(p.clusterReadOnlyReason(editor, 'ed', aurEu, { status: 'SUBMITTED' })).toBeNull();
    expect(p.clusterReadOnlyReason(editor, 'ed', vltEu, { status: 'SUBMITTED' })).toBe('noEditGrant');
  });
  it('a closed release blocks editing', () => {
    expect(p.moduleReadOnlyReason(admin, 'admin', aurEu, { status: 'WIP', releaseClosed: true })).toBe('releaseClosed');
  });
  it('a lock by another user blocks; names compare case-insensitively', () => {
    expect(p.moduleReadOnlyReason(editor, 'ed', aurEu, { status: 'WIP', lockedBy: 'someone' })).toBe('lockedByOther');
    expect(p.moduleReadOnlyReason(editor, 'ed', aurEu, { status: 'WIP', lockedBy: 'ED' })).toBeNull();
  });
});

describe('properties', () => {
  const codes = fc.constantFrom('AUR', 'VLT', 'SLN', 'NRD');
  const zones = fc.constantFrom('EU', 'NA', 'APAC');
  const grantArb = fc.record({
    role: fc.constantFrom('EDITOR', 'SUBMITTER', 'VIEWER', 'CREATOR'),
    types: fc.uniqueArray(fc.constantFrom('view', 'edit', 'submit') as fc.Arbitrary<'view' | 'edit' | 'submit'>),
    rules: fc.uniqueArray(fc.constantFrom('reopen', 'create', 'delete', 'import') as fc.Arbitrary<'reopen' | 'create' | 'delete' | 'import'>),
    brands: fc.uniqueArray(codes),
    starsZones: fc.uniqueArray(zones),
  });
  it('every right on an item implies viewing it (for grants that hold view with their higher level)', () => {
    fc.assert(
      fc.property(fc.array(grantArb, { maxLength: 4 }), codes, zones, (raw, brand, zone) => {
        // Granting edit or submit also grants view (part 1 §6): normalise the input as the admin popup does.
        const grants = raw.map((x) => ({ ...x, types: x.types.length ? Array.from(new Set([...x.types, 'view' as const])) : x.types }));
        const scope = { brand, zones: [zone] };
        const any = p.canEdit(grants, scope) || p.canPublish(grants, scope) || p.canCopy(grants, scope) || p.canDelete(grants, scope);
        return !any || p.canView(grants, scope);
      }),
    );
  });
  it('no grant matches a brand it does not hold', () => {
    fc.assert(
      fc.property(fc.array(grantArb, { maxLength: 4 }), zones, (grants, zone) => {
        const scope = { brand: 'UNKNOWN', zones: [zone] };
        return !p.canView(grants, scope) && !p.canEdit(grants, scope) && !p.canDelete(grants, scope);
      }),
    );
  });
});
