import type { ClusterDto } from '@bo/shared/clusters';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import type { Grant } from '@bo/shared/grants';
import { canPublish, clusterReadOnlyReason, sameUser } from '@bo/shared/permissions';

export interface LockState {
  acquired: boolean;
  userLock: string | null;
}

export interface ClusterAccess {
  /** Why the cluster is read-only for the caller, for its banner; null when editable. */
  reason: string | null;
  readOnly: boolean;
  /** Another user holding the cluster's lock (the page's lock header names them), else null. */
  lockedBy: string | null;
  /** Editable, WIP and the caller may publish it (part 2 §4 "Publish"). */
  canPublish: boolean;
}

export const READ_ONLY_TEXT = {
  noEditGrant: 'Read only: you may not edit this cluster',
  releaseClosed: 'Read only: the release is closed',
  submitInProgress: 'Read only: the submission is in progress',
  monthClosed: 'Read only: the month is closed',
  notLocked: 'Read only: the cluster could not be locked',
  locking: 'Locking…',
} as const;

export const clusterScope = (c: Pick<ClusterDto, 'brandCode' | 'starZones'>) => ({ brand: c.brandCode, zones: c.starZones });

/**
 * What the caller may do with an open cluster (part 2 §4 "Locking", part 2 §6): the shared permission
 * rule first (grant, release, submission, another user's lock), then the month, then our own lock:
 * `locks` is null while the first lock answer is awaited, and a cluster we could not lock is read-only.
 */
export function clusterAccess(grants: readonly Grant[], username: string, c: ClusterDto, locks: Readonly<Record<string, LockState>> | null, key: string): ClusterAccess {
  const lock = locks?.[key];
  const lockedBy = lock?.userLock ?? c.userLock;
  const code = clusterReadOnlyReason(grants, username, clusterScope(c), { status: c.status, releaseClosed: c.releaseClosed, lockedBy });
  let reason: string | null;
  if (code === 'lockedByOther') reason = CLUSTER_EDITOR_TEXTS.lockedBy(lockedBy ?? '');
  else if (code) reason = (READ_ONLY_TEXT as Record<string, string>)[code] ?? code;
  else if (!c.inOpenMonth) reason = READ_ONLY_TEXT.monthClosed;
  else if (!locks) reason = READ_ONLY_TEXT.locking;
  else if (!lock?.acquired) reason = READ_ONLY_TEXT.notLocked;
  else reason = null;
  const readOnly = reason !== null;
  const other = lockedBy && !sameUser(lockedBy, username) ? lockedBy : null;
  return { reason, readOnly, lockedBy: other, canPublish: !readOnly && c.status === 'WIP' && canPublish(grants, clusterScope(c)) };
}
