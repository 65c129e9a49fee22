/**
 * One change of one item in one month, outside an editor (docs/LIFECYCLE.md "Changes without an
 * editor"): what a massive edit row does to each module or cluster it names. Written once for every
 * kind: the facts a change is decided on, the decision (the preconditions of the core, then the kind's
 * own change of the item's content) and the write (content, row fields, version, audit).
 *
 * A change never takes a lock: it is one short transaction on the row (`FOR UPDATE`), refused when
 * somebody else holds the item's lock (their open editor would overwrite it), when the item is being
 * submitted, its month or release is closed, or the caller's current grants do not allow it.
 */
import { itemKeyString, type ItemKeyParts } from '@bo/shared/item-keys';
import { formatMonthId } from '@bo/shared/months';
import { canEdit, canPublish, sameUser, type ItemScope } from '@bo/shared/permissions';
import type { Grant } from '@bo/shared/grants';
import type { Queryable, Tx } from '../../db/client.js';
import type { AuditEntry } from '../../lib/audit.repository.js';
import { liveLocks } from '../../lib/locks.repository.js';
import { monthStates, type MonthState } from './months.repository.js';
import type { ItemKind, LifecycleRow } from './item-kind.js';
import type { JobCaller } from './job-caller.js';

export interface VersionedRow extends LifecycleRow {
  version: number;
}

/** Everything a change of one item-month is decided on. */
export interface ChangeFacts<Row extends VersionedRow, Content> {
  row: Row;
  scope: ItemScope;
  month: MonthState;
  /** Who holds the item's live lock, if anyone. */
  lockOwner: string | undefined;
  content: Content;
}

/** The kind's part of a change: how its content is read, changed and written. */
export interface ChangeKind<Row extends VersionedRow, Content, Edit, Env> {
  kind: ItemKind<Row>;
  label(row: Row): string;
  loadContent(db: Queryable, rows: readonly Row[]): Promise<Map<number, Content>>;
  /** The content after the edit and one line per change for people, or why the edit cannot be made. Pure. */
  change(content: Content, edit: Edit, row: Row, env: Env): { next: Content; changes: string[] } | { error: string };
  /**
   * Writes what changed between `before` and `after`: the content tables and the row's own fields, with
   * `state.status`, the version bumped by one and who changed it.
   */
  write(tx: Tx, row: Row, before: Content, after: Content, state: { status: string; reopened: boolean; username: string }): Promise<void>;
  /** Whether a change reopens a SUBMITTED item as WIP (what is sent to the planning system changed). */
  reopens: boolean;
  /**
   * Whether the caller's grants allow the change (default: `mayChange`, the edit right, or the submit right
   * for Save & Publish). An import asks for the import right instead (docs/IMPORTS.md "Rights").
   */
  mayChange?(grants: readonly Grant[], scope: ItemScope, toPublish: boolean): boolean;
  /** A rule only this kind has (modules: changing a SUBMITTED one needs the reopen right); null when fine. */
  extraRefusal?(grants: readonly Grant[], scope: ItemScope, row: Row): string | null;
  texts: ChangeTexts;
}

export interface ChangeTexts {
  notFound(itemKey: string, monthId: string): string;
  locked(owner: string): string;
  monthUnknown(monthId: string): string;
  monthClosed(monthId: string): string;
  releaseClosed(monthId: string): string;
  submitInProgress: string;
  notAuthorized(itemKey: string, toPublish: boolean): string;
}

export type ChangeDecision<Content> =
  | { outcome: 'failed'; reason: string; /** refused for the caller's rights (notAuthorizedItems) */ notAuthorized?: true }
  | { outcome: 'unchanged' }
  | { outcome: 'applied'; changes: string[]; next: Content };

/** The facts of these item-months, by item key string; `forUpdate` locks the rows for the transaction. */
export async function loadChangeFacts<Row extends VersionedRow, Content>(
  db: Queryable,
  change: ChangeKind<Row, Content, unknown, unknown>,
  keys: readonly ItemKeyParts[],
  lockTtlMinutes: number,
  forUpdate = false,
): Promise<Map<string, ChangeFacts<Row, Content>>> {
  const out = new Map<string, ChangeFacts<Row, Content>>();
  if (keys.length === 0) return out;
  const { kind } = change;
  const rows = await kind.findLive(db, keys, forUpdate);
  // One after the other: inside a transaction they share one connection.
  const scopes = await kind.scopes(db, rows);
  const months = await monthStates(
    db,
    rows.map((r) => r.monthId),
  );
  const locks = await liveLocks(db, kind.type, rows.map(kind.keyOf), lockTtlMinutes);
  const contents = await change.loadContent(db, rows);
  for (const row of rows) {
    const key = itemKeyString(kind.keyOf(row));
    out.set(key, { row, scope: scopes.get(row.id)!, month: months.get(row.monthId)!, lockOwner: locks.get(key), content: contents.get(row.id)! });
  }
  return out;
}

/**
 * Decides one change: the core's preconditions in order (the item lives in the month, the month and its
 * release are open, no submission is running, nobody else holds the lock, the caller may edit — or, for
 * Save & Publish, submit — it), then the kind's change of the content.
 */
export function decideChange<Row extends VersionedRow, Content, Edit, Env>(
  change: ChangeKind<Row, Content, Edit, Env>,
  facts: ChangeFacts<Row, Content> | undefined,
  key: ItemKeyParts,
  edit: Edit,
  env: Env,
  caller: Pick<JobCaller, 'username' | 'grants'>,
  toPublish: boolean,
): ChangeDecision<Content> {
  const { texts } = change;
  const failed = (reason: string): ChangeDecision<Content> => ({ outcome: 'failed', reason });
  if (!facts) return failed(texts.notFound(key.itemKey, key.monthId));
  const { row, month } = facts;
  if (!month.exists) return failed(texts.monthUnknown(row.monthId));
  if (month.releaseClosed) return failed(texts.releaseClosed(row.monthId));
  if (!month.open) return failed(texts.monthClosed(row.monthId));
  if (row.status === 'SUBMIT_IN_PROGRESS') return failed(texts.submitInProgress);
  if (facts.lockOwner && !sameUser(facts.lockOwner, caller.username)) return failed(texts.locked(facts.lockOwner));
  if (!(change.mayChange ?? mayChange)(caller.grants, facts.scope, toPublish)) return { outcome: 'failed', reason: texts.notAuthorized(key.itemKey, toPublish), notAuthorized: true };
  const extra = change.extraRefusal?.(caller.grants, facts.scope, row);
  if (extra) return failed(extra);
  const result = change.change(facts.content, edit, row, env);
  if ('error' in result) return failed(result.error);
  if (result.changes.length === 0) return { outcome: 'unchanged' };
  return { outcome: 'applied', changes: result.changes, next: result.next };
}

/** Save needs the edit right; Save & Publish the submit right (it stands for the edit right, as in the editors). */
export const mayChange = (grants: readonly Grant[], scope: ItemScope, toPublish: boolean) => (toPublish ? canPublish(grants, scope) : canEdit(grants, scope));

/** The status after a change: a kind whose change reopens sends a SUBMITTED item back to WIP. */
export const statusAfterChange = (status: string, reopens: boolean) => (reopens && status === 'SUBMITTED' ? 'WIP' : status);

/** The facts as they are after an applied decision (a preview simulates the rows after it with these). */
export function factsAfter<Row extends VersionedRow, Content>(change: ChangeKind<Row, Content, unknown, unknown>, facts: ChangeFacts<Row, Content>, next: Content): ChangeFacts<Row, Content> {
  return { ...facts, content: next, row: { ...facts.row, status: statusAfterChange(facts.row.status, change.reopens), version: facts.row.version + 1 } };
}

/**
 * Writes an applied decision in `tx`: the kind's content and fields, status and version + 1. Answers the
 * audit entry of the change, for the caller to record in the same transaction (a job records a batch's
 * entries in one statement: auditMany).
 */
export async function writeChange<Row extends VersionedRow, Content>(
  tx: Tx,
  change: ChangeKind<Row, Content, unknown, unknown>,
  facts: ChangeFacts<Row, Content>,
  decision: Extract<ChangeDecision<Content>, { outcome: 'applied' }>,
  caller: JobCaller,
  auditSummary: Record<string, unknown>,
): Promise<AuditEntry> {
  const { row } = facts;
  const status = statusAfterChange(row.status, change.reopens);
  await change.write(tx, row, facts.content, decision.next, { status, reopened: status !== row.status, username: caller.username });
  const key = change.kind.keyOf(row);
  return {
    username: caller.username,
    action: 'save',
    itemType: change.kind.type,
    itemKey: key.itemKey,
    monthId: key.monthId,
    summary: { version: row.version + 1, reopened: status !== row.status, changes: decision.changes, ...auditSummary },
    ...(caller.requestId ? { requestId: caller.requestId } : {}),
  };
}

/** Texts of the core's refusals, worded for one kind ('module' | 'cluster'). */
export function changeTexts(type: 'module' | 'cluster', submitInProgress: string, notAuthorized: (itemKey: string, toPublish: boolean) => string): ChangeTexts {
  return {
    notFound: (itemKey, monthId) => `The ${type} ${itemKey} does not exist in ${formatMonthId(monthId)}`,
    locked: (owner) => `${owner} is editing the ${type}`,
    monthUnknown: (monthId) => `The month ${formatMonthId(monthId)} does not exist`,
    monthClosed: (monthId) => `The month ${formatMonthId(monthId)} is closed`,
    releaseClosed: (monthId) => `The release of ${formatMonthId(monthId)} is closed`,
    submitInProgress,
    notAuthorized,
  };
}
