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

export const RULES = [
  { ruleCode: 'create', description: 'Create modules, clusters and macro families', permissionType: 'edit' },
  { ruleCode: 'reopen', description: 'Edit items that are already submitted', permissionType: 'edit' },
  { ruleCode: 'delete', description: 'Delete modules and clusters', permissionType: 'edit' },
  { ruleCode: 'import', description: 'Import modules and clusters from files', permissionType: 'edit' },
] as const;

export const TEMPLATES = [
  // Each template carries what its Import needs (docs/IMPORTS.md "What each export template imports"): the
  // item and month, the Version (the stale-version guard), and for clusters the modules as 'Module names'.
  // Migration 0013 brings installations made before to these columns.
  {
    templateId: 1,
    templateLabel: 'Module standard',
    templatesType: 'modulo',
    columns: ['moduleName', 'moduleLabel', 'monthId', 'macroFamily', 'brand', 'collection', 'upc', 'model', 'color', 'size', 'mustHave', 'minValue', 'version'],
  },
  {
    templateId: 2,
    templateLabel: 'Module with prices and sales',
    templatesType: 'modulo',
    columns: ['moduleName', 'moduleLabel', 'monthId', 'upc', 'model', 'color', 'size', 'mustHave', 'srp', 'whsprice', 'sellIn', 'sellOut', 'doorIndex', 'pty', 'version'],
  },
  {
    templateId: 3,
    templateLabel: 'Module SKU list',
    templatesType: 'modulo',
    columns: ['moduleName', 'monthId', 'upc', 'model', 'color', 'size', 'mustHave', 'releaseDate', 'flagDisco', 'globalCatalogue', 'version'],
  },
  {
    templateId: 4,
    templateLabel: 'Cluster standard',
    templatesType: 'cluster',
    columns: ['clusterId', 'clusterLabel', 'clusterDescription', 'monthId', 'brandCode', 'collection', 'country', 'starZones', 'lias', 'codiceStoreSap', 'moduleName', 'moduleLabel', 'rangeFacing', 'version'],
  },
  {
    templateId: 5,
    templateLabel: 'Cluster stores',
    templatesType: 'cluster',
    columns: ['clusterId', 'clusterLabel', 'monthId', 'brandCode', 'collection', 'starZones', 'storeJda', 'codiceStoreSap', 'starsCustomer', 'customerSegmentation', 'lias', 'moduleName', 'version'],
  },
] as const;

/** The title of the version column the template exports write and the imports read (Import refuses an item changed since). */
export const VERSION_COLUMN_TITLE = 'Version';

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
