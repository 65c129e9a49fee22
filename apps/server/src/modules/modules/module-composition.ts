import { eq, inArray } from 'drizzle-orm';
import type { CompositionLine } from '@bo/shared/modules';
import type { Queryable } from '../../db/client.js';
import { moduleSkus, skus } from '../../db/schema.js';
import { badRequest } from '../../lib/errors.js';

/**
 * Checks a composition before anything is written: no SKU twice, every SKU known.
 * `path` names the list in error fields (e.g. 'body.productDtoList').
 */
export async function validateComposition(db: Queryable, lines: readonly CompositionLine[], path: string): Promise<void> {
  const fields: { path: string; message: string }[] = [];
  const seen = new Map<string, number>();
  lines.forEach((l, i) => {
    if (seen.has(l.upc)) fields.push({ path: `${path}.${i}.upc`, message: `The SKU ${l.upc} is listed twice` });
    seen.set(l.upc, i);
  });
  const upcs = [...seen.keys()];
  const known = new Set<string>();
  for (let i = 0; i < upcs.length; i += 5000) {
    const rows = await db.select({ upc: skus.upc }).from(skus).where(inArray(skus.upc, upcs.slice(i, i + 5000)));
    for (const r of rows) known.add(r.upc);
  }
  for (const [upc, i] of seen) if (!known.has(upc)) fields.push({ path: `${path}.${i}.upc`, message: `Unknown SKU ${upc}` });
  if (fields.length) throw badRequest(`Invalid composition: ${fields.map((f) => f.message).join('; ')}`, fields, 'invalidComposition');
}

/** Replaces a module's composition (lines keep their order). REMOVED lines remember their class. */
export async function writeComposition(tx: Queryable, moduleId: number, lines: readonly CompositionLine[]): Promise<void> {
  await tx.delete(moduleSkus).where(eq(moduleSkus.moduleId, moduleId));
  for (let i = 0; i < lines.length; i += 1000) {
    const part = lines.slice(i, i + 1000);
    await tx.insert(moduleSkus).values(
      part.map((l, j) => ({
        moduleId,
        upc: l.upc,
        mustHave: l.mustHave,
        status: l.moduleCompositionStatus,
        previousStatus: typeof l.previousStatus === 'string' ? l.previousStatus : null,
        previousMustHave: l.moduleCompositionStatus === 'REMOVED' ? l.mustHave : null,
        minValue: l.minValue ?? 1,
        position: i + j,
      })),
    );
  }
}

/** The composition as stored, in the request's line shape (copy uses it). */
export async function readComposition(db: Queryable, moduleId: number): Promise<CompositionLine[]> {
  const rows = await db.select().from(moduleSkus).where(eq(moduleSkus.moduleId, moduleId)).orderBy(moduleSkus.position);
  return rows.map((r) => ({
    upc: r.upc,
    mustHave: r.mustHave,
    moduleCompositionStatus: r.status as CompositionLine['moduleCompositionStatus'],
    minValue: r.minValue,
    previousStatus: r.previousStatus,
  }));
}

/** A short before/after summary for the audit log. */
export function compositionSummary(lines: readonly CompositionLine[]) {
  const active = lines.filter((l) => l.moduleCompositionStatus !== 'REMOVED');
  return { mh: active.filter((l) => l.mustHave).length, el: active.filter((l) => !l.mustHave).length, removed: lines.length - active.length };
}
