/**
 * A list call that keeps every item or none (the module saveList and publishList, docs/LIFECYCLE.md "Save"),
 * written once: every item is tried in one transaction, each refusal is named, and any refusal undoes all.
 */
import type { ItemKeyParts } from '@bo/shared/item-keys';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';

class RollbackAll extends Error {}

/**
 * Runs `each` on every body in turn, in one transaction. A body it refuses (an AppError) becomes the message
 * `<itemKey> (<monthId>): <why>` and the next body is still tried, so the answer names every refusal; when
 * there is any, nothing is kept. Otherwise `then` finishes with every result in the same transaction.
 */
export async function allOrNothing<Body, R, T>(
  db: Db,
  list: readonly Body[],
  keyOf: (body: Body) => ItemKeyParts,
  each: (tx: Tx, body: Body) => Promise<R>,
  then: (tx: Tx, results: R[]) => Promise<T>,
): Promise<{ messages: string[]; result?: T }> {
  const messages: string[] = [];
  try {
    const result = await db.transaction(async (tx) => {
      const results: R[] = [];
      for (const body of list) {
        try {
          results.push(await each(tx, body));
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          const key = keyOf(body);
          messages.push(`${key.itemKey} (${key.monthId}): ${err.message}`);
        }
      }
      if (messages.length) throw new RollbackAll();
      return then(tx, results);
    });
    return { messages, result };
  } catch (err) {
    if (!(err instanceof RollbackAll)) throw err;
    return { messages };
  }
}
