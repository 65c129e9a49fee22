/**
 * Import Module as a kind of import (docs/IMPORTS.md "Import Module"; the job: import.job.ts). A
 * module-month that exists is changed by the massive edit engine; one that does not is created, in its
 * own transaction, with the creation rules of the create call (items/module/module-creation.ts: checkNewModule, insertNewModule), then
 * filled through the lifecycle core (decideChange, writeChange): created and filled, or neither.
 */
import { moduleCreateSchema } from '@bo/shared/creation';
import { canImportItem, isAdmin } from '@bo/shared/permissions';
import type { Grant } from '@bo/shared/grants';
import type { Db, Tx } from '../../db/client.js';
import { checkNewModule, insertNewModule } from '../../items/module/module-creation.js';
import type { JobCaller } from '../../items/lifecycle/job-caller.js';
import { moduleKind } from '../../items/module/module-kind.js';
import type { ModuleContent, ModuleEnv } from '../../items/module/module-change.js';
import type { ModuleRow } from '../../items/module/modules.repository.js';
import { listReasons } from './import-file.js';
import { fillCreated } from './import-creation.js';
import { IMPORT_JOB_TEXTS, importJobOf, refusedBy, type ImportKind } from './import.job.js';
import { moduleImportChange, moduleImportEditType, MODULE_IMPORT_TEXTS, type ModuleImportEdit } from './module-import-change.js';
import { MODULE_IMPORT_FORMAT, type ModuleGroup } from './module-import-file.js';
import { checkedVersion, NO_OVERWRITE, overwriteKey, type OverwriteKeys } from './stale-version.js';
import { allStarsZones } from './uploads.repository.js';


const MODULE_IMPORT_JOB_TEXTS = {
  noCreationFields: 'the module does not exist: give Module label, Macro family, Brand and Collection to create it',
  noZones: (brand: string) => `no stars zone of ${brand} where you may import: give the Stars zones column`,
} as const;

const toEdit = (g: ModuleGroup): ModuleImportEdit => ({ moduleName: g.itemKey, monthId: g.monthId, lines: g.lines });

/** The zones a module created by the import gets when the file does not say: those the caller may import the brand in. */
async function defaultZones(db: Db, grants: readonly Grant[], brand: string): Promise<string[]> {
  if (isAdmin(grants)) return allStarsZones(db);
  const zones = grants.filter((g) => g.types.includes('edit') && g.rules.includes('import') && g.brands.includes(brand)).flatMap((g) => g.starsZones);
  return [...new Set(zones)].sort();
}

type NewModule = Parameters<typeof checkNewModule>[2];

/** Checks one module-month to create (nothing written): answers the module to write, or why it cannot be created. */
async function prepareCreation(db: Db, group: ModuleGroup, caller: JobCaller): Promise<{ prepared: NewModule } | { reason: string }> {
  const fields = group.create;
  if (!fields) return { reason: MODULE_IMPORT_JOB_TEXTS.noCreationFields };
  const starZones = fields.starZones ?? (await defaultZones(db, caller.grants, fields.brand));
  if (starZones.length === 0) return { reason: MODULE_IMPORT_JOB_TEXTS.noZones(fields.brand) };
  const parsed = moduleCreateSchema.safeParse({
    moduleName: group.itemKey,
    moduleLabel: fields.moduleLabel,
    moduleDescription: '',
    monthId: group.monthId,
    macroFamily: fields.macroFamily,
    brand: fields.brand,
    collection: fields.collection,
    starZones,
  });
  if (!parsed.success) return { reason: listReasons([...new Set(parsed.error.issues.map((i) => i.message))]) };
  const body = parsed.data;
  if (!canImportItem(caller.grants, { brand: body.brand, zones: body.starZones })) return { reason: MODULE_IMPORT_TEXTS.notAuthorized(group.itemKey) };
  try {
    await checkNewModule(db, caller.grants, body);
  } catch (err) {
    refusedBy(err);
  }
  return { prepared: body };
}

/** Creates the module-month and fills it in `tx`, through the lifecycle core; throws ImportRefused when it cannot be. */
async function writeCreation(tx: Tx, group: ModuleGroup, body: NewModule, caller: JobCaller, run: { lockTtlMinutes: number; jobId: number }): Promise<string> {
  try {
    const saved = await insertNewModule(tx, caller, body, { upload: { jobId: run.jobId } });
    const edit = toEdit(group);
    await fillCreated(tx, moduleImportChange, { itemKey: saved.moduleName, monthId: saved.monthId }, edit, await moduleImportEditType.env(tx, [edit]), caller, run);
    return IMPORT_JOB_TEXTS.created(group.lines.length);
  } catch (err) {
    return refusedBy(err);
  }
}

/**
 * Import Module as a kind of import. `overwrite`: the module-months (`${moduleName}|${monthId}`) whose
 * file version is not checked (stale-version.ts; the job reads it from its payload's `overwrite`).
 */
export function moduleImportKind(overwrite: OverwriteKeys = NO_OVERWRITE): ImportKind<ModuleGroup, ModuleRow, ModuleContent, ModuleImportEdit, ModuleEnv, NewModule> {
  return {
    format: MODULE_IMPORT_FORMAT,
    async plan(db, groups) {
      const existing = await moduleKind.findLive(
        db,
        groups.map((g) => ({ itemKey: g.itemKey, monthId: g.monthId })),
      );
      const live = new Set(existing.map((r) => overwriteKey(r.moduleName, r.monthId)));
      return groups.map((g) => (live.has(overwriteKey(g.itemKey, g.monthId)) ? { do: 'edit', itemKey: g.itemKey } : { do: 'create' }));
    },
    editType: moduleImportEditType,
    toEdit: (g) => ({ ...toEdit(g), fileVersion: checkedVersion(overwrite, g.itemKey, g) }),
    creation: { prepare: prepareCreation, write: writeCreation },
  };
}

/** The job: the kind with the payload's overwrite list. */
export const moduleImportJob = importJobOf(moduleImportKind);
