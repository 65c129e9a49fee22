import type { BlockingModule, ClusterBlocking } from '@bo/shared/clusters';
import { moduleKeyString } from '@bo/shared/item-keys';
import { sameUser } from '@bo/shared/permissions';

/**
 * The blocking modules the caller can clear now ('Publish the blocking modules'): theirs to publish (submit
 * right), passing their own checks, not locked by someone else. Each once, however many clusters it blocks.
 */
export function modulesToPublish(blocking: readonly ClusterBlocking[], username: string): BlockingModule[] {
  const out = new Map<string, BlockingModule>();
  for (const c of blocking)
    for (const m of c.modules) if (m.canPublish && m.publishable && (!m.userLock || sameUser(m.userLock, username))) out.set(moduleKeyString(m), m);
  return [...out.values()];
}
