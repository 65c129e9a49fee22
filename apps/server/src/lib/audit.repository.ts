import { auditLog } from '../db/schema.js';
import type { Queryable } from '../db/client.js';

export interface AuditEntry {
  username: string;
  action: string;
  itemType?: string;
  itemKey?: string;
  monthId?: string;
  summary?: unknown;
  requestId?: string;
}

const auditRow = (entry: AuditEntry) => ({
  username: entry.username,
  action: entry.action,
  itemType: entry.itemType ?? null,
  itemKey: entry.itemKey ?? null,
  monthId: entry.monthId ?? null,
  summary: entry.summary ?? null,
  requestId: entry.requestId ?? null,
});

/** Records who did what, when (contract §6). Call it inside the transaction of the change it describes. */
export async function audit(db: Queryable, entry: AuditEntry): Promise<void> {
  await auditInsert(db, entry);
}

/** The INSERT of `audit`, to be sent or made part of the change's own statement (a data-modifying WITH: `auditedWith`). */
export const auditInsert = (db: Queryable, entry: AuditEntry) => db.insert(auditLog).values(auditRow(entry));

/** `db` with the audit entry's INSERT as a WITH query: the statement built on it records the entry too (one round trip). */
export const auditedWith = (db: Queryable, entry: AuditEntry) => db.with(db.$with('audit_entry').as(auditInsert(db, entry).returning({ id: auditLog.id })));

/** Records several entries in one statement (a job's batch of changes), in the transaction of those changes. */
export async function auditMany(db: Queryable, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length) await db.insert(auditLog).values(entries.map(auditRow));
}
