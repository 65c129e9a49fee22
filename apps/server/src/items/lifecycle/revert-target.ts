/**
 * The one rule of versions that a save needs (docs/versions.md): the version a save reverts to
 * must exist. Beside the version rows, so the two kinds' save services need nothing of the history area.
 */
import { VERSION_TEXTS } from '@bo/shared/item-versions';
import type { Queryable } from '../../db/client.js';
import { badRequest } from '../../lib/errors.js';
import { versionExists, type VersionedType } from './item-versions.repository.js';

/**
 * A save with `?revertOf=n`: the version must exist for every item of the save (400 otherwise). The
 * save's own checks (rights, lock, state, validation) stay the save's.
 */
export async function assertRevertTarget(db: Queryable, type: VersionedType, items: readonly { itemKey: string; monthId: string }[], n: number): Promise<void> {
  for (const item of items) {
    if (!(await versionExists(db, type, item.itemKey, item.monthId, n))) {
      throw badRequest(`The ${type} ${item.itemKey} has no version ${n} in ${item.monthId}`, [{ path: 'revertOf', message: VERSION_TEXTS.unknownVersion }]);
    }
  }
}
