/**
 * The module side of the lifecycle engine (docs/LIFECYCLE.md): locks, save, publish, copy.
 * Every change is one transaction that validates before it writes, checks rights and state, and
 * records an audit entry.
 */
import { moduleKeyString } from '@bo/shared/item-keys';
import { MODULE_TEXTS, type CompositionLine, type ModuleCheckForPublish, type ModuleCheckForPublishAnswer, type ModuleDto, type ModuleKey, type ModuleSave } from '@bo/shared/modules';
import { canEdit, canPublish, canReopen, canView, hasType, isAdmin, sameUser, type ItemScope } from '@bo/shared/permissions';
import type { Tx } from '../../db/client.js';
import type { ServiceContext } from '../../plugins/context.js';
import { forbidden, notFound, ruleBroken } from '../../lib/errors.js';
import { acquireLock } from '../../lib/locks.repository.js';
import { lockItems, releaseItemLocks, unlockItems } from '../lifecycle/item-locks.js';
import { itemMonths } from '../lifecycle/item-months.js';
import { assertChangeable, assertLocksHeld, assertVersions } from '../lifecycle/item-preconditions.js';
import { loadTargets, recordSaveVersions, saveNaming, type ItemTarget, type SaveOptions } from '../lifecycle/item-targets.js';
import type { VersionNaming } from '../lifecycle/item-versions.repository.js';
import { allOrNothing } from '../lifecycle/all-or-nothing.js';
import { startAuditedPublication } from '../lifecycle/publish-changed.js';
import { requestCaller } from '../lifecycle/job-caller.js';
import { moduleKind } from './module-kind.js';
import { monthStateOf } from '../lifecycle/months.repository.js';
import { SUBMISSION_STARTED } from '../lifecycle/publish.job.js';
import { moduleBlockReasons, publishBlockedMessage } from '../lifecycle/publish-checks.js';
import { modulePublishFacts, sapStatusesOf } from '../lifecycle/publishing.repository.js';
import { assertValidComposition, compositionSummary } from './module-composition.js';
import { beforeSaveOf, beforeSaveSelect, linesAsStored, readBeforeSave, writeCompositionChanges, type BeforeSave, type WrittenLine } from './module-composition.repository.js';
import { familyExists, familyModuleScopes, findModules, updateModuleRow, type ModuleRow } from './modules.repository.js';
import { savedModuleDto, toModuleDtos } from './module.presenter.js';
import { moduleCopy } from './module-copy.job.js';
import { requestCopy, type CopyRequestTexts } from '../lifecycle/copy-request.js';

const lockKey = (m: ModuleKey) => ({ itemKey: m.moduleName, monthId: m.monthId });

// ───────────────────────────── Locks ─────────────────────────────

/** POST /api/module/lock: the lifecycle core's lockItems (acquired: false = read-only). */
export async function lockModules(ctx: ServiceContext, keys: readonly ModuleKey[]) {
  const answer = await lockItems(ctx, moduleKind, keys.map(lockKey));
  return answer.map(({ itemKey, monthId, locked, userLock, acquired }) => ({ moduleName: itemKey, monthId, locked, userLock, acquired }));
}

/** POST /api/module/unlock?forced=: the lifecycle core's unlockItems; answers the locks released. */
export async function unlockModules(ctx: ServiceContext, keys: readonly ModuleKey[], forced: boolean) {
  const { released } = await unlockItems(ctx, moduleKind, keys.map(lockKey), forced);
  return released.map((r) => ({ moduleName: r.itemKey, monthId: r.monthId, previousOwner: r.owner }));
}

/**
 * Takes (or renews) macro-family locks, with the checks of a module lock: the month exists (404) and
 * is open in an open release (422), and the caller may edit every live module of the family in that
 * month — or, for a family with no module there yet, holds some edit right (403 otherwise, naming what
 * is outside the caller's rights). A family lock holds still the family-month's planners of every brand,
 * so it is only handed to someone who could edit all of it (docs/DECISIONS.md "Macro-family locks").
 * Every key is checked before any lock is taken.
 */
export async function lockFamilies(ctx: ServiceContext, keys: readonly { macroFamily: string; monthId: string }[]) {
  for (const k of keys) {
    if (!(await familyExists(ctx.db, k.macroFamily))) throw notFound(`The macro family ${k.macroFamily} does not exist`);
    const state = await monthStateOf(ctx.db, k.monthId);
    if (!state.exists) throw notFound(`The month ${k.monthId} does not exist`);
    if (state.releaseClosed) throw ruleBroken('releaseClosed', MODULE_TEXTS.releaseClosed);
    if (!state.open) throw ruleBroken('monthClosed', MODULE_TEXTS.monthClosed);
    if (!isAdmin(ctx.user.grants)) assertMayLockFamily(ctx, k, await familyModuleScopes(ctx.db, k.macroFamily, k.monthId));
  }
  const out = [];
  for (const k of keys) {
    const owner = await acquireLock(ctx.db, 'macroFamily', { itemKey: k.macroFamily, monthId: k.monthId }, ctx.user.username, ctx.config.LOCK_TTL_MINUTES);
    out.push({ macroFamily: k.macroFamily, monthId: k.monthId, locked: true, userLock: owner, acquired: sameUser(owner, ctx.user.username) });
  }
  return out;
}

function assertMayLockFamily(ctx: ServiceContext, k: { macroFamily: string; monthId: string }, scopes: readonly ItemScope[]): void {
  if (scopes.length === 0) {
    // No module there yet: the planner is about to create one, so any edit right will do.
    if (!hasType(ctx.user.grants, 'edit')) throw forbidden(`You don't have the right to edit the macro family ${k.macroFamily} in ${k.monthId}.`);
    return;
  }
  const outside = scopes.filter((s) => !canEdit(ctx.user.grants, s));
  if (outside.length === 0) return;
  const brands = [...new Set(outside.map((s) => s.brand))].sort();
  const count = `${outside.length} of its ${scopes.length} module${scopes.length === 1 ? '' : 's'} there`;
  throw forbidden(
    `You may not lock the macro family ${k.macroFamily} in ${k.monthId}: ${count} (brand${brands.length === 1 ? '' : 's'} ${brands.join(', ')}) ${outside.length === 1 ? 'is' : 'are'} outside your edit rights.`,
  );
}

export async function unlockFamilies(ctx: ServiceContext, keys: readonly { macroFamily: string; monthId: string }[], forced: boolean) {
  // A macro family has no brand of its own: forcing its lock is for admins.
  const released = await releaseItemLocks(
    ctx,
    'macroFamily',
    keys.map((k) => ({ itemKey: k.macroFamily, monthId: k.monthId, scope: null })),
    forced,
    (families) => `You may not unlock the macro family(ies) ${families.join(', ')}`,
  );
  return released.map((r) => ({ macroFamily: r.itemKey, monthId: r.monthId, previousOwner: r.owner }));
}

// ───────────────────────────── Save ─────────────────────────────

type ModuleTarget = ItemTarget<ModuleRow, ModuleSave>;

/**
 * The lifecycle core's target of one module body (404 when the module is missing); `naming`: a save's (`saveNaming`).
 * `save`: the options of the save the target is loaded for; when it writes lines (`savedLines`), its read before it
 * writes (`beforeSaveSelect`) is made in the same statement as the target's scope and gate (the target's `also`, taken
 * by `saveModuleInTx`).
 */
async function targetOf(ctx: ServiceContext, tx: Tx, body: ModuleSave, naming?: VersionNaming, save?: ModuleSaveOptions): Promise<ModuleTarget> {
  const lines = save && savedLines(body, save);
  const alsoRead = lines ? (row: ModuleRow) => beforeSaveSelect(row, linesUpcs(lines), beforeSaveAnswer(ctx, save)) : undefined;
  const [target] = await loadTargets(tx, ctx, moduleKind, [body], lockKey, naming, alsoRead);
  return target!;
}

/** The lines a save writes: the body's, unless only the description is saved. */
const savedLines = (body: ModuleSave, opts: Pick<ModuleSaveOptions, 'onlyDescription'>) =>
  opts.onlyDescription ? undefined : (body.productDtoList as CompositionLine[] | undefined);

/** What the read before a save needs for the save's answer (`beforeSaveSelect`'s `answer`), when the save answers the module. */
const beforeSaveAnswer = (ctx: ServiceContext, opts: ModuleSaveOptions) => (opts.answered ? { lockTtlMinutes: ctx.config.LOCK_TTL_MINUTES } : undefined);

const linesUpcs = (lines: readonly { upc: string }[]) => [...new Set(lines.map((l) => l.upc))];

interface ModuleSaveOptions extends SaveOptions {
  /** Save & Publish: the submit right stands for the edit right. */
  forPublish: boolean;
  /** The save answers the module (POST /api/module/save): what its answer needs is read with the stored lines. */
  answered?: boolean;
}

/** A module saved inside a transaction, and its answer when the save read what it needs (`answered`, lines sent). */
interface Saved {
  row: ModuleRow;
  answer?: ModuleDto;
}

/** Saves one module inside `tx`. Throws on any broken rule; nothing is written before every check passed. */
async function saveInTx(ctx: ServiceContext, tx: Tx, target: ModuleTarget, opts: ModuleSaveOptions): Promise<ModuleRow> {
  return (await saveModuleInTx(ctx, tx, target, opts)).row;
}

async function saveModuleInTx(ctx: ServiceContext, tx: Tx, target: ModuleTarget, opts: ModuleSaveOptions): Promise<Saved> {
  const { row, body, scope } = target;
  if (opts.forPublish ? !canPublish(ctx.user.grants, scope) : !canEdit(ctx.user.grants, scope)) {
    throw forbidden(opts.forPublish ? MODULE_TEXTS.noSubmit : MODULE_TEXTS.noEdit);
  }
  assertChangeable(moduleKind, row, target.month);
  if (row.status === 'SUBMITTED' && !canReopen(ctx.user.grants, scope)) throw forbidden(MODULE_TEXTS.reopenRequired, 'reopenRequired');
  assertLocksHeld(ctx, moduleKind, [target]);
  // A repeated or stale submit (the row moved past the version the editor loaded) writes nothing.
  assertVersions(moduleKind, [{ row, loaded: body.version }]);
  await recordSaveVersions(tx, ctx, moduleKind, [row], opts.revertOf, target.versionsNamed);

  const description = body.newDescription ?? body.moduleDescription;
  const lines = savedLines(body, opts);
  let before: ReturnType<typeof compositionSummary> | undefined;
  let read: BeforeSave | undefined;
  let written: WrittenLine[] = [];
  if (lines) {
    // Read with the target when it was loaded for this save (`targetOf`'s `save`), else now.
    read = target.also ? beforeSaveOf(target.also) : await readBeforeSave(tx, row, linesUpcs(lines), beforeSaveAnswer(ctx, opts));
    assertValidComposition(lines, read.known, 'body.productDtoList');
    before = compositionSummary(read.stored);
    // Only the lines that differ: a save changes a few lines of a module of hundreds, and rewriting every
    // line cost a delete and an insert of each, with their index entries and count triggers.
    ({ written } = await writeCompositionChanges(tx, row.id, read.stored, lines));
  }
  // The row and its audit entry in one statement.
  const saved = await updateModuleRow(
    tx,
    row.id,
    {
      ...(description !== undefined && description !== null ? { moduleDescription: description } : {}),
      ...(!opts.onlyDescription && typeof body.newModule === 'boolean' ? { newModule: body.newModule } : {}),
      status: 'WIP',
      rpasErrors: row.status === 'SUBMITTED' ? null : row.rpasErrors,
      version: row.version + 1,
      updatedAt: new Date(),
      updatedBy: ctx.user.username,
    },
    {
      username: ctx.user.username,
      action: 'save',
      itemType: 'module',
      itemKey: row.moduleName,
      monthId: row.monthId,
      requestId: ctx.requestId,
      summary: {
        version: row.version + 1,
        reopened: row.status === 'SUBMITTED',
        description: description !== undefined && description !== row.moduleDescription ? { before: row.moduleDescription, after: description } : undefined,
        composition: lines ? { before, after: compositionSummary(lines) } : undefined,
      },
    },
  );
  if (!read?.answer) return { row: saved! };
  return { row: saved!, answer: savedModuleDto(saved!, read.answer.facts, read.answer.products, linesAsStored(lines!, read.stored, written)) };
}

/** The options of a save list's saves, and of the save a publish makes of what its body carries. */
const LIST_SAVE: ModuleSaveOptions = { onlyDescription: false, forPublish: false };
const PUBLISH_SAVE: ModuleSaveOptions = { onlyDescription: false, forPublish: true };

/** POST /api/module/save?onlyDescription=&revertOf=: saves one module and answers it as saved. */
export async function saveModule(ctx: ServiceContext, body: ModuleSave, opts: SaveOptions): Promise<ModuleDto> {
  const save: ModuleSaveOptions = { ...opts, forPublish: false, answered: true };
  const saved = await ctx.db.transaction(async (tx) => saveModuleInTx(ctx, tx, await targetOf(ctx, tx, body, saveNaming(ctx, opts.revertOf), save), save));
  if (saved.answer) return saved.answer;
  // A description alone: the module read again after the commit.
  const [dto] = await toModuleDtos(ctx.db, [saved.row], { lockTtlMinutes: ctx.config.LOCK_TTL_MINUTES });
  return dto!;
}

/** POST /api/module/saveList: saves every module or none; answers [] on success, else one message per refused module. */
export async function saveModuleList(ctx: ServiceContext, list: readonly ModuleSave[]): Promise<string[]> {
  const { messages } = await allOrNothing(
    ctx.db,
    list,
    lockKey,
    async (tx, body) => saveInTx(ctx, tx, await targetOf(ctx, tx, body, saveNaming(ctx, undefined), LIST_SAVE), LIST_SAVE),
    async () => undefined,
  );
  return messages;
}

// ───────────────────────────── Publish ─────────────────────────────

/** Checks one module for publishing inside `tx`, saving first what its body carries; answers the row that goes. */
async function publishInTx(ctx: ServiceContext, tx: Tx, body: ModuleSave): Promise<ModuleRow> {
  const target = await targetOf(ctx, tx, body, undefined, PUBLISH_SAVE);
  const { row } = target;
  if (!canPublish(ctx.user.grants, target.scope)) throw forbidden(MODULE_TEXTS.noSubmit);
  if (row.status !== 'WIP') {
    if (row.status === 'SUBMIT_IN_PROGRESS') throw ruleBroken('submitInProgress', MODULE_TEXTS.submitInProgress);
    throw ruleBroken('notWip', MODULE_TEXTS.notWip);
  }
  let sent = row;
  if (body.productDtoList || body.newDescription != null) sent = await saveInTx(ctx, tx, target, PUBLISH_SAVE);
  else {
    assertChangeable(moduleKind, row, target.month);
    assertLocksHeld(ctx, moduleKind, [target]);
  }
  // The planning system's checks, on what is about to be sent (the body's lines are saved by now).
  const blocked = moduleBlockReasons((await modulePublishFacts(tx, [sent.id])).get(sent.id)!);
  if (blocked.length) throw ruleBroken('publishBlocked', publishBlockedMessage('module', sent.moduleName, blocked));
  return sent;
}

/** One publication of the modules, each audited. */
const startModulePublication = (ctx: ServiceContext, tx: Tx, rows: readonly ModuleRow[]) =>
  startAuditedPublication(tx, ctx.jobs, rows.map((r) => ({ itemType: 'module' as const, itemKey: r.moduleName, monthId: r.monthId })), requestCaller(ctx));

/**
 * POST /api/module/checkForPublish: the planning system's checks (publish-checks.ts) before anything is
 * sent. Needs the view right on every module (403; 404 for an unknown one), no lock: it changes nothing.
 * A module carrying `productDtoList` is checked with those lines (the composition Save & Publish saves).
 * Answers only the modules that may not be published.
 */
export async function checkModulesForPublish(ctx: ServiceContext, items: ModuleCheckForPublish): Promise<ModuleCheckForPublishAnswer> {
  const rows = await findModules(ctx.db, items);
  const byKey = new Map(rows.map((r) => [moduleKeyString(r), r]));
  const missing = items.find((k) => !byKey.has(moduleKeyString(k)));
  if (missing) throw notFound(`The module ${missing.moduleName} does not exist in ${missing.monthId}`);
  const scopes = await moduleKind.scopes(ctx.db, rows);
  const hidden = rows.filter((r) => !canView(ctx.user.grants, scopes.get(r.id)!));
  if (hidden.length) throw forbidden(`You may not view the module(s) ${hidden.map((r) => r.moduleName).join(', ')}`);

  const stored = await modulePublishFacts(ctx.db, rows.map((r) => r.id));
  const unsavedUpcs = items.flatMap((i) => (i.productDtoList ?? []).map((l) => l.upc));
  const sap = await sapStatusesOf(ctx.db, unsavedUpcs);
  const blocking: ModuleCheckForPublishAnswer['blocking'] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const row = byKey.get(moduleKeyString(item))!;
    if (seen.has(moduleKeyString(row))) continue;
    seen.add(moduleKeyString(row));
    const facts = item.productDtoList
      ? { skus: item.productDtoList.filter((l) => l.moduleCompositionStatus !== 'REMOVED' && sap.has(l.upc)).map((l) => ({ upc: l.upc, sapStatus: sap.get(l.upc) ?? null })) }
      : stored.get(row.id)!;
    const reasons = moduleBlockReasons(facts);
    if (reasons.length) blocking.push({ moduleName: row.moduleName, monthId: row.monthId, moduleLabel: row.moduleLabel, reasons });
  }
  return { blocking };
}

/** POST /api/module/publish: saves what the body carries and publishes the module. */
export async function publishModule(ctx: ServiceContext, body: ModuleSave) {
  const jobId = await ctx.db.transaction(async (tx) => startModulePublication(ctx, tx, [await publishInTx(ctx, tx, body)]));
  return { message: SUBMISSION_STARTED, jobId };
}

/** POST /api/module/publishList: publishes every module or none: `{ message, jobId }` on success, else `{ errors }`. */
export async function publishModuleList(ctx: ServiceContext, list: readonly ModuleSave[]) {
  const { messages, result: jobId } = await allOrNothing(
    ctx.db,
    list,
    lockKey,
    (tx, body) => publishInTx(ctx, tx, body),
    (tx, rows) => startModulePublication(ctx, tx, rows),
  );
  return messages.length ? { errors: messages } : { message: SUBMISSION_STARTED, jobId };
}

// ───────────────────────────── Copy and months ─────────────────────────────

/** POST /api/module/copyCompositions: the lifecycle core's requestCopy with the module copy job. */
export async function copyModules(ctx: ServiceContext, request: { modules: { moduleName: string; monthId: string; destinationMonthList: string[] }[]; toPublish: boolean }) {
  const { jobId, result } = await requestCopy(ctx, moduleCopy, MODULE_COPY_REQUEST_TEXTS, {
    items: request.modules.map((m) => ({ itemKey: m.moduleName, monthId: m.monthId, destinationMonthList: m.destinationMonthList })),
    toPublish: request.toPublish,
  });
  return { errors: result?.errors ?? [], copied: result?.copied ?? [], jobId, done: !!result, ...(result ? { outcome: result.outcome } : {}) };
}

const MODULE_COPY_REQUEST_TEXTS: CopyRequestTexts<ModuleRow> = {
  sourceNotFound: (name, monthId) => `The module ${name} does not exist in ${monthId}`,
  mayNotCopy: (rows) => `You don't have the right to copy the module ${rows.map((r) => r.moduleName).join(', ')}`,
};

/** GET /api/module/:moduleName/months: the lifecycle core's itemMonths. */
export function moduleMonths(ctx: ServiceContext, moduleName: string, monthId: string | undefined, purpose: 'copy' | 'delete'): Promise<string[]> {
  return itemMonths(ctx, moduleKind, moduleName, { monthId, purpose });
}

/** Module DTOs for keys (the editor's load), only those the caller may view. */
export async function moduleDetails(ctx: ServiceContext, keys: readonly ModuleKey[]): Promise<ModuleDto[]> {
  const rows = await findModules(ctx.db, keys);
  const dtos = await toModuleDtos(ctx.db, rows, { lockTtlMinutes: ctx.config.LOCK_TTL_MINUTES });
  return dtos.filter((d) => canView(ctx.user.grants, { brand: d.brand, zones: d.starZones }));
}
