/**
 * Creating a module (part 1 §4 "Creating a module"): the checks that need the database and the insert,
 * shared by the create call (areas/creation) and Import Module (areas/uploads, docs/IMPORTS.md).
 */
import type { z } from 'zod';
import type { moduleCreateSchema } from '@bo/shared/creation';
import { CREATION_TEXTS } from '@bo/shared/creation';
import type { Grant } from '@bo/shared/grants';
import { canCreate } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import { audit } from '../../lib/audit.repository.js';
import { badRequest, conflict, forbidden } from '../../lib/errors.js';
import { lockKeyForCreation, liveKeyMonths, liveLabelInMonth } from '../lifecycle/creation.repository.js';
import { assertMonthWritable, CREATION_MESSAGES, joined, unknownCodes, unknownIn } from '../lifecycle/creation-rules.js';
import { prepareRecreation } from '../lifecycle/recreation.repository.js';
import { insertModule } from './module-creation.repository.js';

export type ModuleCreateParsed = z.output<typeof moduleCreateSchema>;

/** Why a module cannot be created (empty: it can). */
export async function moduleConflicts(db: Queryable, body: { moduleName: string; monthId: string; moduleLabel: string }): Promise<string[]> {
  const reasons: string[] = [];
  const named = await liveKeyMonths(db, 'module', body.moduleName);
  if (named.length) reasons.push(CREATION_MESSAGES.nameTaken('module name', named[0]!.key, named.map((n) => n.monthId)));
  const labelled = await liveLabelInMonth(db, 'module', body.moduleLabel, body.monthId);
  if (labelled) reasons.push(CREATION_MESSAGES.labelTaken('module', body.moduleLabel, labelled, body.monthId));
  return reasons;
}

/**
 * The checks of a new module that need the database, before its transaction: the month is open, the
 * codes exist, the caller may create for the brand and zones. Throws as the create call answers. Used
 * by the create call and by Import Module (docs/IMPORTS.md).
 */
export async function checkNewModule(db: Queryable, grants: readonly Grant[], body: ModuleCreateParsed): Promise<void> {
  await assertMonthWritable(db, body.monthId);
  const unknown = await unknownCodes(db, [
    [unknownIn('brand'), 'brand', [body.brand]],
    [unknownIn('collection'), 'collection', [body.collection]],
    [unknownIn('family'), 'macro family', [body.macroFamily]],
    [unknownIn('zone'), 'stars zones', body.starZones],
    [unknownIn('channel'), 'planning channel', body.planningChannel ? [body.planningChannel] : []],
  ]);
  if (unknown.length) throw badRequest(joined(unknown), undefined, 'invalidModule');
  if (!canCreate(grants, { brand: body.brand, zones: body.starZones })) throw forbidden(CREATION_TEXTS.noCreateRight);
}

/**
 * Writes a new WIP module without SKUs in `tx` (serialised per name; 409 when the name or the label is
 * taken), audited as `create`. The caller's transaction may go on writing (the import fills it).
 */
export async function insertNewModule(tx: Queryable, caller: { username: string; requestId?: string | undefined }, body: ModuleCreateParsed, auditExtra: Record<string, unknown> = {}) {
  await lockKeyForCreation(tx, 'module', body.moduleName);
  const reasons = await moduleConflicts(tx, body);
  if (reasons.length) throw conflict(joined(reasons), 'moduleAlreadyExists');
  const createdAfterDelete = await prepareRecreation(tx, 'module', body.moduleName, body.monthId);
  const saved = await insertModule(
    tx,
    {
      moduleName: body.moduleName,
      monthId: body.monthId,
      moduleLabel: body.moduleLabel,
      moduleDescription: body.moduleDescription,
      macroFamily: body.macroFamily,
      brandCode: body.brand,
      collection: body.collection,
      planningChannelId: body.planningChannel ?? null,
      status: 'WIP',
      newModule: body.newModule,
      initialSize: body.initialSize ?? null,
      createdAfterDelete,
      createdBy: caller.username,
      updatedBy: caller.username,
    },
    body.starZones,
  );
  await audit(tx, {
    username: caller.username,
    action: 'create',
    itemType: 'module',
    itemKey: saved.moduleName,
    monthId: saved.monthId,
    ...(caller.requestId ? { requestId: caller.requestId } : {}),
    summary: {
      moduleLabel: saved.moduleLabel,
      macroFamily: saved.macroFamily,
      brand: saved.brandCode,
      collection: saved.collection,
      starZones: body.starZones,
      initialSize: saved.initialSize,
      createdAfterDelete,
      ...auditExtra,
    },
  });
  return saved;
}
