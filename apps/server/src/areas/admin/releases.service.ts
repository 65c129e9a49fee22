/**
 * Manage Releases (spec part 1 §4 "Release"). A release owns planning months (months.release_id):
 * - creating one (only while no release is open) opens the RELEASE_MONTH_COUNT months that follow the
 *   last month of any release, creating the month rows that do not exist yet;
 * - closing it closes its months (they leave the copy destinations, and the lifecycle engine refuses
 *   edits in them: `releaseClosed`); re-opening opens them again, and is refused while another release is open.
 * Publishing to the front office or to viewers is separate, once each.
 */
import { addMonths, parseMonthId, toMonthId } from '@bo/shared/months';
import { RELEASE_MONTH_COUNT, RELEASE_TEXTS, type ChangeReleaseStatus, type Release } from '@bo/shared/releases';
import type { Queryable } from '../../db/client.js';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { conflict, notFound } from '../../lib/errors.js';
import * as repo from './releases.repository.js';

export const listReleases = (ctx: ServiceContext) => repo.listReleases(ctx.db);

async function releaseOf(db: Queryable, releaseId: string): Promise<Release> {
  const [release] = await repo.listReleases(db, releaseId);
  if (!release) throw notFound(RELEASE_TEXTS.notFound(releaseId), 'releaseNotFound');
  return release;
}

/** The months a new release opens: the ones after the last release month (or from the current month). */
function nextMonths(last: { year: number; month: number } | undefined, now: Date) {
  const first = last ? addMonths(toMonthId(last.year, last.month), 1) : toMonthId(now.getUTCFullYear(), now.getUTCMonth() + 1);
  return Array.from({ length: RELEASE_MONTH_COUNT }, (_, i) => {
    const monthId = addMonths(first, i);
    return { monthId, ...parseMonthId(monthId)! };
  });
}

export async function createRelease(ctx: ServiceContext, releaseId: string): Promise<Release> {
  return ctx.db.transaction(async (tx) => {
    await repo.lockReleases(tx);
    if (await repo.findRelease(tx, releaseId)) throw conflict(RELEASE_TEXTS.exists(releaseId), 'releaseExists');
    if ((await repo.openReleases(tx)).length) throw conflict(RELEASE_TEXTS.openExists, 'releaseOpen');
    const monthList = nextMonths(await repo.lastReleaseMonth(tx), new Date());
    await repo.insertRelease(tx, releaseId);
    await repo.assignMonths(tx, releaseId, monthList);
    await audit(tx, {
      username: ctx.user.username,
      action: 'release-create',
      itemType: 'release',
      itemKey: releaseId,
      summary: { months: monthList.map((m) => m.monthId) },
      requestId: ctx.requestId,
    });
    return releaseOf(tx, releaseId);
  });
}

export async function changeReleaseStatus(ctx: ServiceContext, { releaseId, action }: ChangeReleaseStatus): Promise<Release> {
  return ctx.db.transaction(async (tx) => {
    await repo.lockReleases(tx);
    const release = await repo.findRelease(tx, releaseId);
    if (!release) throw notFound(RELEASE_TEXTS.notFound(releaseId), 'releaseNotFound');
    const to = action === 'close' ? 'CLOSED' : 'OPEN';
    if (release.status === to) {
      throw conflict(`The release ${releaseId} is already ${to === 'OPEN' ? 'open' : 'closed'}.`, to === 'OPEN' ? 'releaseAlreadyOpen' : 'releaseAlreadyClosed');
    }
    if (to === 'OPEN') {
      const other = (await repo.openReleases(tx)).find((id) => id !== releaseId);
      if (other) throw conflict(RELEASE_TEXTS.otherOpen(other), 'releaseOpen');
    }
    await repo.setStatus(tx, releaseId, to);
    const updated = await releaseOf(tx, releaseId);
    await audit(tx, {
      username: ctx.user.username,
      action: 'release-status',
      itemType: 'release',
      itemKey: releaseId,
      summary: { from: release.status, to, months: updated.months.map((m) => m.monthId) },
      requestId: ctx.requestId,
    });
    return updated;
  });
}

export async function publishRelease(ctx: ServiceContext, releaseId: string, target: 'frontOffice' | 'viewer'): Promise<Release> {
  return ctx.db.transaction(async (tx) => {
    await repo.lockReleases(tx);
    const release = await repo.findRelease(tx, releaseId);
    if (!release) throw notFound(RELEASE_TEXTS.notFound(releaseId), 'releaseNotFound');
    const visibility = target === 'frontOffice' ? release.foVisibility : release.viewerVisibility;
    if (visibility === 'PUBLISHED') {
      throw conflict(target === 'frontOffice' ? RELEASE_TEXTS.alreadyPublished : RELEASE_TEXTS.alreadyPublishedViewer, 'releaseAlreadyPublished');
    }
    await repo.publish(tx, releaseId, target, new Date());
    await audit(tx, { username: ctx.user.username, action: 'release-publish', itemType: 'release', itemKey: releaseId, summary: { target }, requestId: ctx.requestId });
    return releaseOf(tx, releaseId);
  });
}
