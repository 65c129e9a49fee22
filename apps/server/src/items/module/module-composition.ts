import type { CompositionLine } from '@bo/shared/modules';
import { badRequest } from '../../lib/errors.js';

/**
 * Checks a composition before anything is written: no SKU twice, every SKU known (`known`: which of its UPCs
 * exist, read with the stored lines by `readBeforeSave`). `path` names the list in error fields
 * (e.g. 'body.productDtoList').
 */
export function assertValidComposition(lines: readonly CompositionLine[], known: ReadonlySet<string>, path: string): void {
  const fields: { path: string; message: string }[] = [];
  const seen = new Map<string, number>();
  lines.forEach((l, i) => {
    if (seen.has(l.upc)) fields.push({ path: `${path}.${i}.upc`, message: `The SKU ${l.upc} is listed twice` });
    seen.set(l.upc, i);
  });
  for (const [upc, i] of seen) if (!known.has(upc)) fields.push({ path: `${path}.${i}.upc`, message: `Unknown SKU ${upc}` });
  if (fields.length) throw badRequest(`Invalid composition: ${fields.map((f) => f.message).join('; ')}`, fields, 'invalidComposition');
}

/** A short before/after summary for the audit log. */
export function compositionSummary(lines: readonly CompositionLine[]) {
  const active = lines.filter((l) => l.moduleCompositionStatus !== 'REMOVED');
  return { mh: active.filter((l) => l.mustHave).length, el: active.filter((l) => !l.mustHave).length, removed: lines.length - active.length };
}
