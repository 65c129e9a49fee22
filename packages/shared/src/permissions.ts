/**
 * The permission rules of part 1 §6 and part 2 §6, in one place, for the server (which enforces them)
 * and the browser (which mirrors them to hide what the server would refuse).
 *
 * An item is described by its brand and the stars zones it concerns: a module's `starZones`, or for a
 * cluster the zones of its countries. A grant matches an item when the grant holds the item's brand and
 * at least one of its zones (an item without zones matches on brand alone).
 */
import type { Grant, PermissionType, RuleCode } from './grants.js';

export interface ItemScope {
  brand: string;
  zones?: readonly string[];
}

export type ItemStatus = 'WIP' | 'SUBMIT_IN_PROGRESS' | 'SUBMITTED' | (string & {});

const lower = (s: string | undefined | null) => (s ?? '').toLowerCase();

/** Is this stored role ADMIN? Roles compare case-insensitively (part 1 §6); the one answer for every caller. */
export function isAdminRole(role: string | undefined | null): boolean {
  return (role ?? '').toUpperCase() === 'ADMIN';
}

/** Admin: the first grant's role is ADMIN (isAdminRole). */
export function isAdmin(grants: readonly Grant[]): boolean {
  return isAdminRole(grants[0]?.role);
}

/** Creator: a grant whose role is 'CREATOR' (case-insensitive). */
function isCreator(grants: readonly Grant[]): boolean {
  return grants.some((g) => lower(g.role) === 'creator');
}

export function hasRoles(grants: readonly Grant[] | null | undefined): boolean {
  return !!grants && grants.length > 0;
}

function matchesScope(grant: Grant, scope: ItemScope): boolean {
  if (!grant.brands.includes(scope.brand)) return false;
  const zones = scope.zones ?? [];
  return zones.length === 0 || zones.some((z) => grant.starsZones.includes(z));
}

/** A grant of one of `types` matching the item's brand and zone. */
function hasTypeFor(grants: readonly Grant[], types: readonly PermissionType[], scope: ItemScope): boolean {
  return grants.some((g) => g.types.some((t) => types.includes(t)) && matchesScope(g, scope));
}

/** A grant of one of `types`, carrying `rule`, matching the item's brand and zone. */
function hasRuleFor(
  grants: readonly Grant[],
  rule: RuleCode,
  types: readonly PermissionType[],
  scope: ItemScope,
): boolean {
  return grants.some((g) => g.rules.includes(rule) && g.types.some((t) => types.includes(t)) && matchesScope(g, scope));
}

export function hasType(grants: readonly Grant[], type: PermissionType): boolean {
  return grants.some((g) => g.types.includes(type));
}

export const canView = (grants: readonly Grant[], scope: ItemScope) =>
  isAdmin(grants) || hasTypeFor(grants, ['view', 'edit', 'submit'], scope);

/** Edit, save and remove need an edit grant matching brand and zone. */
export const canEdit = (grants: readonly Grant[], scope: ItemScope) =>
  isAdmin(grants) || hasTypeFor(grants, ['edit'], scope);

/** Publish: admin, or a submit grant matching the item's brand and zone. */
export const canPublish = (grants: readonly Grant[], scope: ItemScope) =>
  isAdmin(grants) || hasTypeFor(grants, ['submit'], scope);

/** Copy needs a matching edit or submit grant. */
export const canCopy = (grants: readonly Grant[], scope: ItemScope) =>
  isAdmin(grants) || hasTypeFor(grants, ['edit', 'submit'], scope);

/** Create: edit with the create rule for the brand (and zone, when given). */
export const canCreate = (grants: readonly Grant[], scope: ItemScope) =>
  isAdmin(grants) || hasRuleFor(grants, 'create', ['edit'], scope);

/** Reopen a SUBMITTED module: edit with the reopen rule, per brand and zone. */
export const canReopen = (grants: readonly Grant[], scope: ItemScope) =>
  isAdmin(grants) || hasRuleFor(grants, 'reopen', ['edit'], scope);

/**
 * Delete: admin; edit with the delete rule; submit with the delete rule also counts;
 * other roles only with the delete rule — always for a matching brand and zone.
 */
export const canDelete = (grants: readonly Grant[], scope: ItemScope) =>
  isAdmin(grants) || hasRuleFor(grants, 'delete', ['view', 'edit', 'submit'], scope);

/** The Deletion Area's restore (and home's delete): admin, or any grant with the delete rule. */
export const canDeleteAny = (grants: readonly Grant[]) => isAdmin(grants) || grants.some((g) => g.rules.includes('delete'));

/** The Import Data button: admin, or an edit grant with the import rule. */
export const canImportAny = (grants: readonly Grant[]) =>
  isAdmin(grants) || grants.some((g) => g.types.includes('edit') && g.rules.includes('import'));

/** Importing one item: admin, or edit with the import rule on a matching brand and zone. */
export const canImportItem = (grants: readonly Grant[], scope: ItemScope) =>
  isAdmin(grants) || hasRuleFor(grants, 'import', ['edit'], scope);

/** Export: admin, or an edit grant on a matching brand and zone. */
export const canExport = (grants: readonly Grant[], scope: ItemScope) =>
  isAdmin(grants) || hasTypeFor(grants, ['edit'], scope);

/** The export page and its button: admin or any edit grant. */
export const canExportAny = (grants: readonly Grant[]) => isAdmin(grants) || hasType(grants, 'edit');

/** Copy popup editing (COPY button and copy-all): admin, or CREATOR with edit or submit types. */
export const canUseCopyPopup = (grants: readonly Grant[]) =>
  isAdmin(grants) || (isCreator(grants) && (hasType(grants, 'edit') || hasType(grants, 'submit')));

/** In the copy popup: Save needs admin or creator with edit. */
export const canSaveInCopy = (grants: readonly Grant[]) => isAdmin(grants) || (isCreator(grants) && hasType(grants, 'edit'));

/** In the copy popup: Save & Publish needs admin or creator with submit. */
export const canSavePublishInCopy = (grants: readonly Grant[]) =>
  isAdmin(grants) || (isCreator(grants) && hasType(grants, 'submit'));

/**
 * The server's copy rule (part 1 §6, part 2 §6: "others get COPY disabled"): a matching edit or submit
 * grant on the item, and the copy popup's own button: Save needs admin or creator with edit, Save &
 * Publish admin or creator with submit.
 */
export const canCopyItem = (grants: readonly Grant[], scope: ItemScope, toPublish: boolean) =>
  canCopy(grants, scope) && (toPublish ? canSavePublishInCopy(grants) : canSaveInCopy(grants));

/** Publish All (massive edit, working area): a submit-type permission. */
export const canPublishAny = (grants: readonly Grant[]) => isAdmin(grants) || hasType(grants, 'submit');

/** Massive-edit publish needs a grant that is not view plus edit only. */
export const canMassivePublish = canPublishAny;

/** Massive-edit save and preview (the server's massiveEdit check): admin, or any edit-type grant. */
export const canMassiveSave = (grants: readonly Grant[]) => isAdmin(grants) || hasType(grants, 'edit');

/** Manage Users, Manage Brands, Manage Releases and massive edit of selected modules: admin only. */
export const canAdminister = (grants: readonly Grant[]) => isAdmin(grants);

/** DISCO/REMOVED AREA: admin or anyone who can edit something (the spec leaves the roles open). */
export const canUseDiscoArea = (grants: readonly Grant[]) => isAdmin(grants) || hasType(grants, 'edit');

interface EditableState {
  status: ItemStatus;
  /** Is the item's release (its month's release) closed? */
  releaseClosed?: boolean;
  /** The lock owner's user name, if locked. */
  lockedBy?: string | null;
}

/** User names compare case-insensitively. */
export const sameUser = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && lower(a) === lower(b);

type ReadOnlyReason = 'submitInProgress' | 'submittedNoReopen' | 'releaseClosed' | 'lockedByOther' | 'noEditGrant';

/**
 * Why an item is read-only for `username`, or null when it may be edited: no edit grant; release closed;
 * SUBMIT_IN_PROGRESS; SUBMITTED without the reopen right (modules only, `submittedNeedsReopen`); locked by
 * another user.
 */
function readOnlyReason(
  grants: readonly Grant[],
  username: string,
  scope: ItemScope,
  state: EditableState,
  submittedNeedsReopen: boolean,
): ReadOnlyReason | null {
  if (!canEdit(grants, scope)) return 'noEditGrant';
  if (state.releaseClosed) return 'releaseClosed';
  if (state.status === 'SUBMIT_IN_PROGRESS') return 'submitInProgress';
  if (submittedNeedsReopen && state.status === 'SUBMITTED' && !canReopen(grants, scope)) return 'submittedNoReopen';
  if (state.lockedBy && !sameUser(state.lockedBy, username)) return 'lockedByOther';
  return null;
}

/**
 * Why a module is read-only for `username`, or null when it may be edited.
 * Blocked when SUBMIT_IN_PROGRESS; SUBMITTED without the reopen right; release closed; locked by another user.
 */
export const moduleReadOnlyReason = (grants: readonly Grant[], username: string, scope: ItemScope, state: EditableState) =>
  readOnlyReason(grants, username, scope, state, true);

/**
 * Why a cluster is read-only for `username`, or null. Clusters are checked by brand code and the zones of
 * their countries; a SUBMITTED cluster is edited only with a matching grant (an edit grant suffices).
 */
export const clusterReadOnlyReason = (grants: readonly Grant[], username: string, scope: ItemScope, state: EditableState) =>
  readOnlyReason(grants, username, scope, state, false);

/** Create something (a macro family, or the home's create buttons before a brand is chosen): edit with the create rule, any brand. */
export const canCreateAny = (grants: readonly Grant[]) => isAdmin(grants) || grants.some((g) => g.types.includes('edit') && g.rules.includes('create'));
