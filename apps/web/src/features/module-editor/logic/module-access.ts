import type { Grant } from '@bo/shared/grants';
import type { ModuleDto } from '@bo/shared/modules';
import { canCopy, canEdit, canPublish, canUseCopyPopup, moduleReadOnlyReason, sameUser } from '@bo/shared/permissions';

export interface LockState {
  acquired: boolean;
  userLock: string | null;
}

export interface ModuleAccess {
  readOnly: boolean;
  /** Why it is read-only, for the card's banner; null when editable. */
  reason: string | null;
  lockedBy: string | null;
  canSave: boolean;
  canPublish: boolean;
  canCopy: boolean;
}

/** What the user may do with a module on the page (part 1 §4 "Editing is blocked…", §6). */
export function moduleAccess(grants: readonly Grant[], username: string, dto: ModuleDto, lock: LockState | undefined, busy: boolean): ModuleAccess {
  const scope = { brand: dto.brand, zones: dto.starZones };
  const lockedBy = lock?.userLock ?? dto.userLock;
  const other = lockedBy && !sameUser(lockedBy, username) ? lockedBy : null;
  const code = moduleReadOnlyReason(grants, username, scope, { status: dto.status, releaseClosed: dto.releaseClosed, lockedBy: other });
  let reason: string | null = null;
  if (code === 'lockedByOther') reason = `${other} is editing the module`;
  else if (code === 'noEditGrant') reason = "Read only: you don't have an edit right on this brand and stars zone";
  else if (code === 'releaseClosed') reason = 'Read only: the release of this month is closed';
  else if (code === 'submitInProgress') reason = 'SUBMIT IN PROGRESS: read only until the planning system answers';
  else if (code === 'submittedNoReopen') reason = 'Read only: the module is submitted and reopening it needs the reopen right';
  else if (!dto.inOpenMonth) reason = 'Read only: the month is closed';
  else if (lock && !lock.acquired) reason = other ? `${other} is editing the module` : 'Read only: the module could not be locked';
  const readOnly = reason !== null || busy;
  return {
    readOnly,
    reason,
    lockedBy: other,
    canSave: !readOnly && canEdit(grants, scope),
    canPublish: !readOnly && dto.status === 'WIP' && canPublish(grants, scope),
    canCopy: !busy && canUseCopyPopup(grants) && canCopy(grants, scope),
  };
}
