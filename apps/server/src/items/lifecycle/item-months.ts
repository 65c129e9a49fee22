import { compareMonthIds } from '@bo/shared/months';
import { canView } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import { openMonthIds } from './months.repository.js';
import type { ItemKind, LifecycleRow } from './item-kind.js';

/** The open months in which an item is live, sorted (the possible deletion start months). */
export async function openMonthsWhereLive<Row extends LifecycleRow>(db: Queryable, kind: ItemKind<Row>, itemKey: string): Promise<string[]> {
  const [versions, open] = [await kind.liveVersions(db, itemKey), new Set(await openMonthIds(db))];
  return [...new Set(versions.map((v) => v.monthId).filter((m) => open.has(m)))].sort(compareMonthIds);
}

/**
 * GET /api/{module|cluster}/:key/months. `copy`: every open month but `monthId` (the months the item may be
 * copied to). `delete`: the open months in which the item is live. 404 when the item is not live (in
 * `monthId`, when given) or, for delete, live in no open month; 403 to a caller who may not view it; 400 for
 * copy without `monthId`.
 */
export async function itemMonths<Row extends LifecycleRow>(
  ctx: ServiceContext,
  kind: ItemKind<Row>,
  itemKey: string,
  query: { monthId?: string | undefined; purpose: 'copy' | 'delete' },
): Promise<string[]> {
  const versions = await kind.liveVersions(ctx.db, itemKey);
  const anchor = query.monthId ? versions.find((v) => v.monthId === query.monthId) : versions[0];
  if (!anchor) throw notFound(kind.texts.monthsNotFound(itemKey, query.monthId));
  if (!canView(ctx.user.grants, (await kind.scopes(ctx.db, [anchor])).get(anchor.id)!)) throw forbidden(kind.texts.mayNotView(itemKey));
  if (query.purpose === 'delete') {
    const list = await openMonthsWhereLive(ctx.db, kind, itemKey);
    if (list.length === 0) throw notFound(kind.texts.monthsNotFound(itemKey, undefined));
    return list;
  }
  if (!query.monthId) throw badRequest('monthId is required', [{ path: 'querystring.monthId', message: 'Required' }]);
  return (await openMonthIds(ctx.db)).filter((m) => m !== query.monthId);
}
