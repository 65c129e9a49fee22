/**
 * What a save or publish of either kind starts from, written once (docs/LIFECYCLE.md "Editing states"):
 * the live rows of the body's items, locked for the transaction, each with its permission scope and its
 * gate (month state and lock owner); and the naming of the versions a save records.
 */
import { itemKeyString, type ItemKeyParts } from '@bo/shared/item-keys';
import type { ItemScope } from '@bo/shared/permissions';
import type { Tx } from '../../db/client.js';
import type { ServiceContext } from '../../plugins/context.js';
import { notFound } from '../../lib/errors.js';
import { alsoSelectOf, itemScopesAndGates, type AlsoSelect } from './item-gate.repository.js';
import type { ItemGate } from './item-preconditions.js';
import type { ItemKind, LifecycleRow } from './item-kind.js';
import { recordVersionsAs, versionNamingColumns, type VersionNaming } from './item-versions.repository.js';
import { assertRevertTarget } from './revert-target.js';

/** The options of a save call, the same for both kinds. */
export interface SaveOptions {
  /** `?onlyDescription=true`: only the description is saved. */
  onlyDescription: boolean;
  /** `?revertOf=n`: the save restores version n (recorded as a revert; docs/versions.md). */
  revertOf?: number | undefined;
}

/** One item of a save or publish body: its live row (locked for the transaction), the body, its scope and its gate. */
export interface ItemTarget<Row extends LifecycleRow, Body> extends ItemGate {
  row: Row;
  body: Body;
  scope: ItemScope;
  /** The transaction's versions were named as a save's when the targets were read (`loadTargets`' `naming`). */
  versionsNamed: boolean;
  /** What `loadTargets`' `alsoRead` read with the target, by alias (undefined when nothing was). */
  also?: Record<string, unknown>;
}

/** How the versions of a save are named (docs/versions.md): a revert of version `revertOf` when given, else a save. */
export const saveNaming = (ctx: ServiceContext, revertOf: number | undefined): VersionNaming => ({
  action: revertOf !== undefined ? 'revert' : 'save',
  username: ctx.user.username,
  revertOf,
});

/**
 * The targets of the bodies, in their order; 404 naming the first body whose item is missing or deleted. `naming`: the
 * transaction's versions are named so in the same statement as the scopes and gates (`saveNaming`, for a save).
 * `alsoRead`: for one body, what else to read in that statement, given its locked row (a module save's read before it
 * writes: one round trip fewer); its values are the target's `also`.
 */
export async function loadTargets<Row extends LifecycleRow, Body>(
  tx: Tx,
  ctx: ServiceContext,
  kind: ItemKind<Row>,
  bodies: readonly Body[],
  keyOfBody: (body: Body) => ItemKeyParts,
  naming?: VersionNaming,
  alsoRead?: (row: Row) => AlsoSelect,
): Promise<ItemTarget<Row, Body>[]> {
  const rows = await kind.findLive(tx, bodies.map(keyOfBody), true);
  const byKey = new Map(rows.map((r) => [itemKeyString(kind.keyOf(r)), r]));
  const missing = bodies.map(keyOfBody).find((k) => !byKey.has(itemKeyString(k)));
  if (missing) throw notFound(`The ${kind.type} ${missing.itemKey} does not exist in ${missing.monthId}`);
  const found = bodies.map((body) => ({ row: byKey.get(itemKeyString(keyOfBody(body)))!, body }));
  // Read after the row locks, so after any wait for them.
  const read = alsoRead && rows.length === 1 ? alsoRead(rows[0]!) : undefined;
  const facts = await itemScopesAndGates(tx, kind, rows, ctx.config.LOCK_TTL_MINUTES, alsoSelectOf(naming && versionNamingColumns(naming), read));
  return found.map((f) => {
    const { scope, gate, also: values } = facts.get(f.row.id)!;
    return { ...f, scope, ...gate, versionsNamed: !!naming, ...(read ? { also: values } : {}) };
  });
}

/**
 * Names the versions a save records (docs/versions.md, `saveNaming`): a revert when `revertOf` is given, whose version
 * must exist for every item saved (400), else a save. `named`: already named when the targets were read.
 */
export async function recordSaveVersions<Row extends LifecycleRow>(
  tx: Tx,
  ctx: ServiceContext,
  kind: ItemKind<Row>,
  rows: readonly Row[],
  revertOf: number | undefined,
  named = false,
): Promise<void> {
  if (revertOf !== undefined) await assertRevertTarget(tx, kind.type, rows.map(kind.keyOf), revertOf);
  if (named) return;
  const { action, username } = saveNaming(ctx, revertOf);
  await recordVersionsAs(tx, action, username, revertOf);
}
