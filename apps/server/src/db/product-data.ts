/**
 * The data the product itself defines, on every installation whatever DEMO_DATA says (docs/RELEASE-FILES.md
 * "Product data and retailer data"): the permission rules grants hang on (part 1 §4: reopen, create, delete,
 * import) and the export templates. Written at start, idempotently: a row that exists is left as it is (an
 * installation's templates keep their columns), a missing one is created. Everything else — brands,
 * collections, channels, zones, countries, LIAs, macro families, classifications, customers, stores, SKUs —
 * is the retailer's, and comes from the release files (Reference Data and the four).
 */
import { sql } from 'drizzle-orm';
import type { Queryable } from './client.js';
import { rules, templates } from './schema.js';
import { RULES, TEMPLATES } from './seed/reference-data.js';

export async function ensureProductData(db: Queryable): Promise<{ rules: number; templates: number }> {
  const addedRules = await db.insert(rules).values([...RULES]).onConflictDoNothing().returning({ code: rules.ruleCode });
  const addedTemplates = await db
    .insert(templates)
    .values(TEMPLATES.map((t) => ({ templateId: t.templateId, templateLabel: t.templateLabel, templatesType: t.templatesType, columns: [...t.columns] })))
    .onConflictDoNothing()
    .returning({ id: templates.templateId });
  // The templates' ids are the product's: the sequence continues after them.
  if (addedTemplates.length) await db.execute(sql`SELECT setval(pg_get_serial_sequence('templates', 'template_id'), (SELECT max(template_id) FROM templates))`);
  return { rules: addedRules.length, templates: addedTemplates.length };
}
