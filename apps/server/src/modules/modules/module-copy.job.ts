import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { moduleStarsZones, modules } from '../../db/schema.js';
import type { JobHandler, JobRunner } from '../../jobs/job-runner.js';
import { audit } from '../../lib/audit.repository.js';
import { liveLocks } from '../locks/locks.repository.js';
import { startPublication, type PublishItem } from '../publishing/publish.job.js';
import { readComposition, writeComposition } from './module-composition.repository.js';
import { monthStateOf } from '../months/months.repository.js';
import { findModule, moduleZones } from './modules.repository.js';

export const COPY_MODULE_JOB = 'copy-module';

export interface CopyModulesPayload {
  modules: { moduleName: string; monthId: string; destinationMonthList: string[] }[];
  toPublish: boolean;
  /** Checked at the call: may the caller publish the copies? */
  mayPublish: boolean;
  requestId: string;
}

export interface CopyModulesResult {
  errors: { moduleName: string; months: string[]; message: string }[];
  copied: { moduleName: string; months: string[] }[];
}

interface Checkpoint {
  index: number;
  failures: { moduleName: string; month: string; message: string }[];
  done: { moduleName: string; month: string }[];
  published: boolean;
}

/** Copies one module into one destination month, in one transaction. Answers an error text, or null when copied. */
async function copyOne(db: Db, moduleName: string, fromMonth: string, toMonth: string, username: string, lockTtl: number, requestId: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    const src = await findModule(tx, { moduleName, monthId: fromMonth });
    if (!src) return `The module no longer exists in ${fromMonth}`;
    const month = await monthStateOf(tx, toMonth);
    if (!month.exists) return `The month ${toMonth} does not exist`;
    if (!month.open) return `The month ${toMonth} is closed`;
    if (month.releaseClosed) return `The release of ${toMonth} is closed`;
    const [dest] = await tx
      .select()
      .from(modules)
      .where(and(eq(modules.moduleName, moduleName), eq(modules.monthId, toMonth)))
      .for('update');
    if (dest?.deletionStatus) return `The module is being deleted in ${toMonth}`;
    if (dest?.status === 'SUBMIT_IN_PROGRESS') return `The module is being submitted in ${toMonth}`;
    const holder = (await liveLocks(tx, 'module', [{ itemKey: moduleName, monthId: toMonth }], lockTtl)).get(`${moduleName}|${toMonth}`);
    if (holder && holder.toLowerCase() !== username.toLowerCase()) return `${holder} is editing the module in ${toMonth}`;

    const lines = await readComposition(tx, src.id);
    const zones = (await moduleZones(tx, [src.id])).get(src.id) ?? [];
    const fields = {
      moduleLabel: src.moduleLabel,
      moduleDescription: src.moduleDescription,
      macroFamily: src.macroFamily,
      brandCode: src.brandCode,
      collection: src.collection,
      planningChannelId: src.planningChannelId,
      newModule: src.newModule,
      initialSize: src.initialSize,
      door: src.door,
      status: 'WIP',
      rpasErrors: null,
      updatedAt: new Date(),
      updatedBy: username,
    };
    let destId: number;
    if (dest) {
      await tx.update(modules).set({ ...fields, version: dest.version + 1 }).where(eq(modules.id, dest.id));
      destId = dest.id;
      await tx.delete(moduleStarsZones).where(eq(moduleStarsZones.moduleId, destId));
    } else {
      const [created] = await tx
        .insert(modules)
        .values({ ...fields, moduleName, monthId: toMonth, createdBy: username })
        .returning({ id: modules.id });
      destId = created!.id;
    }
    if (zones.length) await tx.insert(moduleStarsZones).values(zones.map((z) => ({ moduleId: destId, starsZone: z })));
    await writeComposition(tx, destId, lines);
    await audit(tx, {
      username,
      action: 'copy',
      itemType: 'module',
      itemKey: moduleName,
      monthId: toMonth,
      requestId,
      summary: { from: fromMonth, overwritten: !!dest, skus: lines.length },
    });
    return null;
  });
}

function group(entries: { moduleName: string; month: string; message?: string }[]) {
  const map = new Map<string, { moduleName: string; months: string[]; message: string }>();
  for (const e of entries) {
    const key = `${e.moduleName}|${e.message ?? ''}`;
    const g = map.get(key) ?? { moduleName: e.moduleName, months: [], message: e.message ?? '' };
    g.months.push(e.month);
    map.set(key, g);
  }
  return [...map.values()];
}

/**
 * The copy job: one transaction per (module, destination month), resumable from its checkpoint.
 * With toPublish, the copies are then published; that step records its own completion in the same
 * transaction, so a resumed job never publishes twice.
 */
export function copyModulesJob(runner: JobRunner, lockTtlMinutes: number): JobHandler {
  return async ({ job, db, progress, checkpoint, resumeFrom }) => {
    const payload = job.payload as CopyModulesPayload;
    const pairs = payload.modules.flatMap((m) => m.destinationMonthList.map((to) => ({ moduleName: m.moduleName, from: m.monthId, to })));
    const cp: Checkpoint = (resumeFrom as Checkpoint | undefined) ?? { index: 0, failures: [], done: [], published: false };
    for (let i = cp.index; i < pairs.length; i++) {
      const p = pairs[i]!;
      const error = await copyOne(db, p.moduleName, p.from, p.to, job.createdBy, lockTtlMinutes, payload.requestId);
      if (error) cp.failures.push({ moduleName: p.moduleName, month: p.to, message: error });
      else cp.done.push({ moduleName: p.moduleName, month: p.to });
      cp.index = i + 1;
      await progress((cp.index / Math.max(1, pairs.length)) * (payload.toPublish ? 90 : 100), cp);
    }
    if (payload.toPublish && !cp.published && cp.done.length) {
      if (!payload.mayPublish) {
        for (const d of cp.done) cp.failures.push({ moduleName: d.moduleName, month: d.month, message: "Copied, but you don't have the right to publish it" });
      } else {
        const items: PublishItem[] = cp.done.map((d) => ({ itemType: 'module', itemKey: d.moduleName, monthId: d.month }));
        await db.transaction(async (tx) => {
          await startPublication(tx, (t, kind, pl, by) => runner.enqueue(t, kind, pl, by), items, job.createdBy);
          await checkpoint(tx, { ...cp, published: true }, 90);
        });
      }
      cp.published = true;
    }
    const result: CopyModulesResult = { errors: group(cp.failures), copied: group(cp.done).map(({ moduleName, months: m }) => ({ moduleName, months: m })) };
    const response = [
      ...result.copied.map((c) => `Copied module ${c.moduleName} for the months: ${c.months.join(', ')}`),
      ...result.errors.map((e) => `Unable to copy the module ${e.moduleName} for the months: ${e.months.join(', ')} (${e.message})`),
    ].join(';');
    return { result, response };
  };
}
