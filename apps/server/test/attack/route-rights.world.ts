/**
 * The small world of the route-rights suite (route-rights.test.ts): the demo roles of contract §4,
 * scaled to the builders' reference world, and one item of each kind per brand.
 *
 * Brands AUR and VLT, zones EU and NA (buildReference). Per brand, in the open month M01_2027:
 * - a WIP module (MA / MV) with one SKU, an empty WIP one (MAE / MVE), and a SUBMITTED one (MAS / MVS,
 *   also in M02_2027) that the brand's cluster holds;
 * - a WIP cluster (CA / CV, country IT, zone EU, one store, one LIA) holding the SUBMITTED module;
 * - a module and a cluster pending deletion from M01_2027 (DA / DV, DCA / DCV), restorable;
 * - a PENDING suggested cluster (SA / SV) for Italy;
 * - a macro family of its own (FAMA / FAMV) holding the brand's modules.
 * M12_2026 is closed (buildReference); release R2027 is open.
 *
 * Users (password 'secret'), mirroring DEMO_USERS of src/seed/users.ts:
 * - admin: ADMIN, every level, brand, zone and rule;
 * - creator: CREATOR, view+edit+submit on AUR+VLT / EU+NA, rules create, reopen, delete, import;
 * - editor: EDITOR, view on AUR+VLT / EU+NA, edit on AUR / EU only, no rules;
 * - submitter: SUBMITTER, view+edit+submit on AUR / EU only (VLT is invisible to them), no rules;
 * - viewer: VIEWER, view on AUR+VLT / EU+NA;
 * - holder: another editor of both brands, who holds the locks that forced unlocks break;
 * - target: the user that the user-administration calls change.
 * Also a finished export job of `holder` with its file.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { RuleCode } from '@bo/shared/grants';
import { queryRows, type Database, type Db } from '../../src/db/client.js';
import {
  allowedEmails,
  clientClassifications,
  clusters,
  deletionRequests,
  exportFiles,
  jobs,
  modules,
  rules,
  suggestedClusterModules,
  suggestedClusters,
  suggestedClusterStores,
  templates,
} from '../../src/db/schema.js';
import { buildCluster, buildModule, buildReference, buildSku, buildStore, buildUser } from '../builders.js';

export const ROLES = ['admin', 'creator', 'editor', 'submitter', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The open month every item lives in, another open month (copy destination) and the closed one. */
export const OPEN_MONTH = 'M01_2027';
export const OTHER_OPEN_MONTH = 'M02_2027';
export const CLOSED_MONTH = 'M12_2026';

export type Target = 'VLT' | 'AUR';

/** The items of one brand. */
export interface TargetItems {
  brand: Target;
  /** WIP module, one SKU. */
  module: string;
  /** SUBMITTED module, ADDED in the brand's cluster (also in the other open month, so the cluster copies). */
  submittedModule: string;
  /** WIP module without SKUs (cheap to export). */
  emptyModule: string;
  /** WIP cluster. */
  cluster: string;
  /** Module and cluster pending deletion (restorable). */
  deletedModule: string;
  deletedCluster: string;
  /** PENDING suggested cluster. */
  suggestion: string;
  family: string;
  /** The brand's SKU (in `module`). */
  upc: string;
}

export interface World {
  items: Record<Target, TargetItems>;
  userIds: Record<Role | 'holder' | 'target', number>;
  classificationId: number;
  moduleTemplateId: number;
  clusterTemplateId: number;
  store: { storeJda: string; codiceStoreSap: string; starsCustomer: string; customerSegmentation: string };
  /** An e-mail on the provider's list without an account yet. */
  allowedEmail: string;
  /** A finished job and export file of `holder` (only their owner or an admin may read them). */
  holderJobId: number;
  holderExportId: number;
}

const ALL = { brands: ['AUR', 'VLT'], zones: ['EU', 'NA'] };
const AUR_EU = { brands: ['AUR'], zones: ['EU'] };

export async function buildRightsWorld(db: Db): Promise<World> {
  await buildReference(db);
  await db.insert(rules).values([
    { ruleCode: 'reopen', description: 'Edit items that are already submitted', permissionType: 'edit' },
    { ruleCode: 'import', description: 'Import modules and clusters from files', permissionType: 'edit' },
  ]);
  const allowedEmail = 'new.planner@example.com';
  await db.insert(allowedEmails).values([{ email: allowedEmail }]);
  const [vip] = await db.insert(clientClassifications).values({ classificationLabel: 'VIP' }).returning();
  const [template] = await db.select({ id: templates.templateId }).from(templates).where(eq(templates.templatesType, 'modulo'));
  const [clusterTemplate] = await db.select({ id: templates.templateId }).from(templates).where(eq(templates.templatesType, 'cluster'));

  const allRules: RuleCode[] = ['create', 'reopen', 'delete', 'import'];
  const u = {
    admin: await buildUser(db, { username: 'admin', role: 'ADMIN', grants: { view: ALL, edit: { ...ALL, rules: allRules }, submit: ALL } }),
    creator: await buildUser(db, { username: 'creator', role: 'CREATOR', grants: { view: ALL, edit: { ...ALL, rules: allRules }, submit: ALL } }),
    editor: await buildUser(db, { username: 'editor', role: 'EDITOR', grants: { view: ALL, edit: AUR_EU } }),
    submitter: await buildUser(db, { username: 'submitter', role: 'SUBMITTER', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } }),
    viewer: await buildUser(db, { username: 'viewer', role: 'VIEWER', grants: { view: ALL } }),
    holder: await buildUser(db, { username: 'holder', role: 'EDITOR', grants: { view: ALL, edit: ALL } }),
    target: await buildUser(db, { username: 'target', role: 'EDITOR', grants: { view: AUR_EU } }),
  };

  const store = await buildStore(db, 'IT');
  const items = {} as Record<Target, TargetItems>;
  for (const brand of ['AUR', 'VLT'] as const) {
    const p = brand === 'AUR' ? 'A' : 'V';
    const t: TargetItems = {
      brand,
      module: `M${p}`,
      submittedModule: `M${p}S`,
      emptyModule: `M${p}E`,
      cluster: `C${p}`,
      deletedModule: `D${p}`,
      deletedCluster: `DC${p}`,
      suggestion: `S${p}`,
      family: `FAM${p}`,
      upc: (await buildSku(db, { brandCode: brand })).upc,
    };
    items[brand] = t;
    const mod = { brandCode: brand, macroFamily: t.family, monthId: OPEN_MONTH };
    await buildModule(db, { ...mod, moduleName: t.module, skus: [{ upc: t.upc }] });
    await buildModule(db, { ...mod, moduleName: t.submittedModule, status: 'SUBMITTED', skus: [{ upc: t.upc }] });
    await buildModule(db, { ...mod, moduleName: t.submittedModule, status: 'SUBMITTED', monthId: OTHER_OPEN_MONTH, skus: [{ upc: t.upc }] });
    await buildModule(db, { ...mod, moduleName: t.emptyModule });
    await buildModule(db, { ...mod, moduleName: t.deletedModule });
    const cl = { brandCode: brand, monthId: OPEN_MONTH, storeJdas: [store.storeJda] };
    await buildCluster(db, { ...cl, clusterId: t.cluster, modules: [{ moduleName: t.submittedModule }] });
    await buildCluster(db, { ...cl, clusterId: t.deletedCluster });

    // Pending deletions, as DELETE /api/module and /api/cluster leave them.
    await db
      .update(modules)
      .set({ deletionStatus: 'DELETION_PENDING' })
      .where(and(eq(modules.moduleName, t.deletedModule), eq(modules.monthId, OPEN_MONTH)));
    await db
      .update(clusters)
      .set({ deletionStatus: 'DELETION_PENDING' })
      .where(and(eq(clusters.clusterId, t.deletedCluster), eq(clusters.monthId, OPEN_MONTH)));
    await db.insert(deletionRequests).values([
      { itemType: 'module', itemKey: t.deletedModule, deleteFromMonthId: OPEN_MONTH, requestedBy: 'admin' },
      { itemType: 'cluster', itemKey: t.deletedCluster, deleteFromMonthId: OPEN_MONTH, requestedBy: 'admin' },
    ]);

    await db.insert(suggestedClusters).values({
      assortmentId: t.suggestion,
      originalAssortment: `SUG${p}`,
      releaseId: 'R2027',
      monthId: OPEN_MONTH,
      brandCode: brand,
      collection: 'SUN',
      country: 'IT',
      userSuggest: 'buyer@example.com',
      dateSuggest: '2026-12-15',
      period: 'SS 2027',
      status: 'PENDING',
    });
    await db
      .insert(suggestedClusterStores)
      .values({ assortmentId: t.suggestion, storeJda: store.storeJda, starsCustomer: store.starsCustomer, customerSegmentation: store.customerSegmentation });
    await db.insert(suggestedClusterModules).values({ assortmentId: t.suggestion, moduleName: t.submittedModule, foType: 'NOT SWITCH', added: true });
  }

  const [job] = await db
    .insert(jobs)
    .values({ kind: 'export', status: 'DONE', progress: 100, payload: {}, result: {}, createdBy: 'holder', finishedAt: new Date() })
    .returning();
  const [file] = await db
    .insert(exportFiles)
    .values({
      user: 'holder',
      exportType: 'xls',
      status: 'DONE',
      progress: 100,
      fileName: 'MA.xlsx',
      contentType: 'application/octet-stream',
      content: Buffer.from('not really a workbook'),
      jobId: job!.id,
    })
    .returning();

  return {
    holderJobId: job!.id,
    holderExportId: file!.id,
    items,
    userIds: Object.fromEntries(Object.entries(u).map(([k, v]) => [k, v.userId])) as World['userIds'],
    classificationId: vip!.classificationId,
    moduleTemplateId: template!.id,
    clusterTemplateId: clusterTemplate!.id,
    store: { storeJda: store.storeJda, codiceStoreSap: store.codiceStoreSap, starsCustomer: store.starsCustomer, customerSegmentation: store.customerSegmentation },
    allowedEmail,
  };
}

/**
 * A copy of every table, taken once after the world is built, and the script that puts it back: far
 * cheaper than emptying and rebuilding (TRUNCATE of ~40 tables takes about a second on PostgreSQL).
 * The copy lives in a schema of its own beside the worker's, dropped by `drop()`.
 */
export interface WorldSnapshot {
  restore(): Promise<void>;
  drop(): Promise<void>;
}

export async function snapshotWorld(database: Database): Promise<WorldSnapshot> {
  const [{ schema } = { schema: 'public' }] = await queryRows<{ schema: string }>(database.db, sql`SELECT current_schema() AS schema`);
  const tables = (
    await queryRows<{ tablename: string }>(
      database.db,
      sql`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations' ORDER BY tablename`,
    )
  ).map((t) => t.tablename);
  const snap = `${schema}_rights_snapshot`;
  const q = (s: string, t: string) => `"${s}"."${t}"`;
  await database.execScript(
    [`DROP SCHEMA IF EXISTS "${snap}" CASCADE`, `CREATE SCHEMA "${snap}"`, ...tables.map((t) => `CREATE TABLE ${q(snap, t)} AS TABLE ${q(schema, t)}`)].join(';\n'),
  );
  const filled: string[] = [];
  for (const t of tables) {
    const [row] = await queryRows<{ n: number }>(database.db, sql.raw(`SELECT count(*)::int AS n FROM ${q(snap, t)}`));
    if (row && row.n > 0) filled.push(t);
  }
  // Foreign keys are triggers: with replication role 'replica' they do not fire, so order does not matter.
  const script = [
    'BEGIN',
    'SET LOCAL session_replication_role = replica',
    ...tables.map((t) => `DELETE FROM ${q(schema, t)}`),
    ...filled.map((t) => `INSERT INTO ${q(schema, t)} SELECT * FROM ${q(snap, t)}`),
    'COMMIT',
  ].join(';\n');
  return {
    restore: () => database.execScript(script),
    drop: () => database.execScript(`DROP SCHEMA IF EXISTS "${snap}" CASCADE`),
  };
}
