import { asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Release, ReleaseStatus, Visibility } from '@bo/shared/releases';
import { compareMonthIds } from '@bo/shared/months';
import type { Queryable } from '../../db/client.js';
import { months, releases } from '../../db/schema.js';

type ReleaseRecord = typeof releases.$inferSelect;

/**
 * Serialises the release changes of all processes (one open release at a time): held until the
 * transaction ends. Readers are not blocked.
 */
export async function lockReleases(db: Queryable): Promise<void> {
  await db.execute(sql`LOCK TABLE releases IN EXCLUSIVE MODE`);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Releases sorted by releaseId, each with its months (year, then month). */
export async function listReleases(db: Queryable, releaseId?: string): Promise<Release[]> {
  const rows = await db
    .select()
    .from(releases)
    .where(releaseId ? eq(releases.releaseId, releaseId) : undefined)
    .orderBy(asc(releases.releaseId));
  const monthRows = await db
    .select({ monthId: months.monthId, open: months.open, releaseId: months.releaseId })
    .from(months)
    .where(releaseId ? eq(months.releaseId, releaseId) : isNotNull(months.releaseId));
  return rows.map((r) => ({
    releaseId: r.releaseId,
    creationDate: r.creationDate.toISOString(),
    status: r.status as ReleaseStatus,
    foVisibility: r.foVisibility as Visibility,
    foPublicationDate: iso(r.foPublicationDate),
    viewerVisibility: r.viewerVisibility as Visibility,
    viewerPublicationDate: iso(r.viewerPublicationDate),
    months: monthRows
      .filter((m) => m.releaseId === r.releaseId)
      .map((m) => ({ monthId: m.monthId, open: m.open }))
      .sort((a, b) => compareMonthIds(a.monthId, b.monthId)),
  }));
}

export async function findRelease(db: Queryable, releaseId: string): Promise<ReleaseRecord | undefined> {
  const rows = await db.select().from(releases).where(eq(releases.releaseId, releaseId));
  return rows[0];
}

export async function openReleases(db: Queryable): Promise<string[]> {
  const rows = await db.select({ releaseId: releases.releaseId }).from(releases).where(eq(releases.status, 'OPEN'));
  return rows.map((r) => r.releaseId);
}

/** The latest month that belongs to some release, if any. */
export async function lastReleaseMonth(db: Queryable): Promise<{ year: number; month: number } | undefined> {
  const rows = await db
    .select({ year: months.year, month: months.month })
    .from(months)
    .where(isNotNull(months.releaseId))
    .orderBy(desc(months.year), desc(months.month))
    .limit(1);
  return rows[0];
}

export async function insertRelease(db: Queryable, releaseId: string): Promise<void> {
  await db.insert(releases).values({ releaseId, status: 'OPEN' });
}

/** Gives the months to the release, open: existing month rows are taken over, missing ones created. */
export async function assignMonths(db: Queryable, releaseId: string, list: readonly { monthId: string; year: number; month: number }[]): Promise<void> {
  if (list.length === 0) return;
  await db
    .insert(months)
    .values(list.map((m) => ({ ...m, open: true, releaseId })))
    .onConflictDoUpdate({ target: months.monthId, set: { releaseId, open: true } });
}

export async function setStatus(db: Queryable, releaseId: string, status: ReleaseStatus): Promise<void> {
  await db.update(releases).set({ status }).where(eq(releases.releaseId, releaseId));
  // A release opens and closes its planning months with it.
  await db.update(months).set({ open: status === 'OPEN' }).where(eq(months.releaseId, releaseId));
}

export async function publish(db: Queryable, releaseId: string, target: 'frontOffice' | 'viewer', at: Date): Promise<void> {
  await db
    .update(releases)
    .set(target === 'frontOffice' ? { foVisibility: 'PUBLISHED', foPublicationDate: at } : { viewerVisibility: 'PUBLISHED', viewerPublicationDate: at })
    .where(eq(releases.releaseId, releaseId));
}
