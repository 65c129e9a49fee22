/**
 * The copy call of the lifecycle core (docs/LIFECYCLE.md), once for modules and clusters: checks the
 * request (400: a source copied onto its own month or onto one month twice), the sources (404) and the
 * caller's copy right (403: admin or CREATOR, Save with edit, Save & Publish with submit), queues the
 * kind's copy job and waits for it up to `waitMs`; after that the browser polls GET /api/jobs/:id.
 */
import { itemKeyString } from '@bo/shared/item-keys';
import { compareMonthIds } from '@bo/shared/months';
import { canCopyItem } from '@bo/shared/permissions';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import type { CopyJobPayload, CopyJobResult, CopyKind, CopyRow } from './copy-job.js';

export const COPY_WAIT_MS = 60_000;

export interface CopyRequestTexts<Row> {
  /** 404: the source is not live in its month. */
  sourceNotFound(itemKey: string, monthId: string): string;
  /** 403: the caller may not copy these sources. */
  mayNotCopy(rows: readonly Row[]): string;
}

export interface CopyRequestItem {
  itemKey: string;
  monthId: string;
  destinationMonthList: string[];
}

/** The outcome of the call: the job's result when it ended within the wait, else null (still running). */
export interface CopyStarted<K extends string> {
  jobId: number;
  result: CopyJobResult<K> | null;
}

export async function requestCopy<Row extends CopyRow, K extends CopyKind<Row>['keyField']>(
  ctx: ServiceContext,
  copy: CopyKind<Row> & { keyField: K },
  texts: CopyRequestTexts<Row>,
  request: { items: readonly CopyRequestItem[]; toPublish: boolean },
  waitMs = COPY_WAIT_MS,
): Promise<CopyStarted<K>> {
  const { kind } = copy;
  const fields: { path: string; message: string }[] = [];
  const targetsSeen = new Set<string>();
  request.items.forEach((item, i) => {
    if (item.destinationMonthList.includes(item.monthId))
      fields.push({ path: `body.${kind.type}s.${i}.destinationMonthList`, message: `The ${kind.type} cannot be copied onto its own month ${item.monthId}` });
    for (const month of new Set(item.destinationMonthList)) {
      const target = itemKeyString({ itemKey: item.itemKey, monthId: month });
      if (targetsSeen.has(target)) fields.push({ path: `body.${kind.type}s.${i}`, message: `The ${kind.type} ${item.itemKey} is copied to ${month} twice` });
      targetsSeen.add(target);
    }
  });
  if (fields.length) throw badRequest(`Invalid request: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}`, fields);

  const rows = await kind.findLive(ctx.db, request.items);
  const byKey = new Map(rows.map((r) => [itemKeyString(kind.keyOf(r)), r]));
  const missing = request.items.find((item) => !byKey.has(itemKeyString(item)));
  if (missing) throw notFound(texts.sourceNotFound(missing.itemKey, missing.monthId));
  const scopes = await kind.scopes(ctx.db, rows);
  const refused = rows.filter((r) => !canCopyItem(ctx.user.grants, scopes.get(r.id)!, request.toPublish));
  if (refused.length) throw forbidden(texts.mayNotCopy(refused));

  const payload: CopyJobPayload = {
    items: request.items.map((item) => ({ ...item, destinationMonthList: [...new Set(item.destinationMonthList)].sort(compareMonthIds) })),
    toPublish: request.toPublish,
    requestId: ctx.requestId,
  };
  const job = await ctx.jobs.enqueue(ctx.db, copy.jobKind, payload, ctx.user.username);
  const finished = await ctx.jobs.waitFor(job.id, waitMs);
  if (finished?.status === 'DONE') return { jobId: job.id, result: finished.result as CopyJobResult<K> };
  if (finished?.status === 'FAILED') {
    // The job broke as a whole (not one month): every requested copy is reported as failed.
    const message = finished.response ?? 'The copy failed';
    const named = (itemKey: string) => ({ [copy.keyField]: itemKey }) as Record<K, string>;
    const failed = payload.items.map((i) => ({ itemKey: i.itemKey, months: i.destinationMonthList, message }));
    const outcome = {
      toPublish: request.toPublish,
      counts: { copied: 0, published: 0, notPublished: 0, failed: failed.reduce((n, f) => n + f.months.length, 0) },
      copiedMonths: [],
      publishedMonths: [],
      notPublished: [],
      failed,
    };
    return { jobId: job.id, result: { errors: payload.items.map((i) => ({ ...named(i.itemKey), months: i.destinationMonthList, message })), copied: [], publishJobId: null, outcome } };
  }
  return { jobId: job.id, result: null };
}
