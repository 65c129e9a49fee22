/**
 * The second half of every import creation (Import Module, Import Cluster): the item-month just written by
 * the create call's own insert (module-creation.ts, cluster-creation.ts) is filled with the file's content through the lifecycle
 * core — the same decision and write as an update of an existing item (decideChange, writeChange: rights,
 * the change, version + 1, audit `save`) — in the same transaction, so it is created and filled, or neither.
 */
import { itemKeyString, type ItemKeyParts } from '@bo/shared/item-keys';
import type { Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.repository.js';
import { decideChange, loadChangeFacts, writeChange, type ChangeKind, type VersionedRow } from '../../items/lifecycle/item-change.js';
import type { JobCaller } from '../../items/lifecycle/job-caller.js';
import { ImportRefused } from './import.job.js';

/** Applies `edit` to the item-month `key` created in `tx`; throws ImportRefused when the change is refused. */
export async function fillCreated<Row extends VersionedRow, Content, Edit, Env>(
  tx: Tx,
  change: ChangeKind<Row, Content, Edit, Env>,
  key: ItemKeyParts,
  edit: Edit,
  env: Env,
  caller: JobCaller,
  run: { lockTtlMinutes: number; jobId: number },
): Promise<void> {
  const loose = change as unknown as ChangeKind<Row, Content, unknown, unknown>;
  const facts = (await loadChangeFacts(tx, loose, [key], run.lockTtlMinutes, true)).get(itemKeyString(key));
  const decision = decideChange(change, facts, key, edit, env, caller, false);
  if (decision.outcome === 'failed') throw new ImportRefused(decision.reason);
  if (decision.outcome === 'applied') await audit(tx, await writeChange(tx, loose, facts!, decision, caller, { upload: { jobId: run.jobId } }));
}
