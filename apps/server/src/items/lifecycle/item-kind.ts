/**
 * What the lifecycle core (docs/LIFECYCLE.md) needs to know about one kind of item: where its rows are,
 * how its key reads, what its permission scope is, and the texts it answers with. Everything else —
 * locks, months, save preconditions — is written once in this folder for every kind.
 */
import type { SQL } from 'drizzle-orm';
import type { ItemKeyParts } from '@bo/shared/item-keys';
import type { ItemScope } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import type { MonthState } from './months.repository.js';

/** What a save or publish checks of an item before it writes: its month's state and who holds its live lock. */
export interface ItemGate {
  month: MonthState;
  lockOwner: string | undefined;
}

/** An item row's permission scope and gate, as the lock, save and publish paths read them in one statement (item-gate.repository.ts). */
export interface ItemFacts {
  scope: ItemScope;
  gate: ItemGate;
}

/** The columns of a module or cluster row the core reads. */
export interface LifecycleRow {
  id: number;
  monthId: string;
  status: string;
  brandCode: string;
}

export interface ItemTexts {
  submitInProgress: string;
  monthClosed: string;
  releaseClosed: string;
  /** 422 when the caller does not hold the live lock on save or publish. */
  notLocked: string;
  notLockedKey: 'moduleNotLocked' | 'clusterNotLocked';
  /** 403 of a forced unlock naming the keys the caller may not unlock. */
  mayNotUnlock(itemKeys: readonly string[]): string;
  /** 404 of the months call: the item is not live (in `monthId`, when given). */
  monthsNotFound(itemKey: string, monthId: string | undefined): string;
  mayNotView(itemKey: string): string;
}

export interface ItemKind<Row extends LifecycleRow = LifecycleRow> {
  type: 'module' | 'cluster';
  keyOf(row: Row): ItemKeyParts;
  /** Live (not deleted) rows of the keys, ordered by id; `forUpdate` locks them for the transaction. */
  findLive(db: Queryable, keys: readonly ItemKeyParts[], forUpdate?: boolean): Promise<Row[]>;
  /** Every live row of one item, in any month. */
  liveVersions(db: Queryable, itemKey: string): Promise<Row[]>;
  /** Permission scope of each row, by row id. */
  scopes(db: Queryable, rows: readonly Row[]): Promise<Map<number, ItemScope>>;
  /** In SQL: the stars zones of the row whose id is `rowId`, sorted (an empty array when none); what `scopes` reads. */
  zonesOf(rowId: SQL): SQL;
  /**
   * findLive (not for update) with each row's scope and gate (month state, live lock owner under `ttlMinutes`), in one
   * statement (the lock path): a select of the kind's table with item-gate.repository's `gateColumns`, then `splitGated`.
   */
  findLiveGated(db: Queryable, keys: readonly ItemKeyParts[], ttlMinutes: number): Promise<{ rows: Row[]; facts: Map<number, ItemFacts> }>;
  texts: ItemTexts;
}

