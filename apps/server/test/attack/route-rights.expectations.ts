/**
 * Who may call what: one row per route of /api/openapi.json, read by route-rights.test.ts.
 *
 * Every protected write route (POST/PUT/PATCH/DELETE) MUST have a row here: the suite fails for a
 * route that has none, so a new route gets its row the day it is added. GET routes need a row only
 * when some role is refused (or the URL needs real ids); a GET without a row must answer every role.
 *
 * Reading a row:
 * - `targets`: the call is item-scoped and runs once per target item — `VLT` (the editor only views
 *   that brand, the submitter does not see it at all) and `AUR` (AUR/EU: editor and submitter may edit).
 *   Without targets the call is run once per role (bodies then name AUR items when they need one).
 * - `forbidden`: who gets 403 `{ error, message }`. An entry is a role ('viewer': on every target) or a
 *   role at a target ('editor@VLT'). `hidden`: who gets 404 (the item is invisible to them).
 *   `readOnly`: lock calls that answer 200 with `acquired: false` (docs/LIFECYCLE.md: the page opens
 *   read-only). Everyone else may: neither 401 nor 403 nor 5xx, and `ok` when given.
 * - `unseen`: allowed readers whose answer must not name the VLT items (the submitter cannot view VLT):
 *   calls that answer what the caller may view filter the rest out.
 * - `answer`: calls whose refusal the spec puts in a 200 answer instead of a 403 (cluster save:
 *   `unauthorizedList`; save-all: the messages; publish-all: `errors`): refused roles must get a
 *   non-empty one, allowed roles an empty one.
 * - `notAuthorized`: massive edits queue their job and name in `notAuthorizedItems` the items the caller may
 *   not change (part 2 §6): these cells must get a non-empty one, the allowed others an empty one.
 * - `lock`: before the call, the item's lock is held by the caller (so the rights, not the lock, decide)
 *   or by `holder` (the forced unlocks break it).
 * - `reads`: the call changes nothing (the world is not restored after it).
 * - `waitsForJob`: the answer waits for a job, which the suite runs beside the call.
 * - `knownBug`: cells where the server answers otherwise today; their test is marked failing
 *   (`it.fails`) until the server is fixed, then the entry is removed.
 *
 * Sources: spec part 1 §6 and part 2 §6, contract §4/§6, packages/shared/src/permissions.ts,
 * docs/DECISIONS.md and docs/LIFECYCLE.md (for what the spec leaves open).
 */
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { Db } from '../../src/db/client.js';
import { jobs, releases, uploads } from '../../src/db/schema.js';
import { RELEASE_FILE_KINDS } from '../../src/areas/uploads/release-loader/formats.js';
import { templateCsv } from '../../src/areas/uploads/release-loader/release-export.js';
import { releasePreview, RELEASE_PREVIEW_UPLOAD } from './release-preview.fixture.js';
import { OPEN_MONTH, OTHER_OPEN_MONTH, type Role, type Target, type TargetItems, type World } from './route-rights.world.js';

export type Cell = Role | `${Role}@${Target}`;
export type MultipartPart = { field: string; fileName: string; content: Buffer; type?: string } | { field: string; value: string };

export interface RightsRow {
  targets?: readonly Target[];
  /**
   * A multipart body instead of JSON (uploads): the file of field `excelFile`, for the target's items,
   * or every part of the body (Upload Files: four files and plain fields).
   */
  multipart?: (t: TargetItems, w: World) => Promise<{ fileName: string; content: Buffer } | MultipartPart[]>;
  /** The request body (a valid one), for the target's items. */
  body?: (t: TargetItems, w: World) => unknown;
  /** Path parameters (`{name}` of the OpenAPI path). */
  params?: (t: TargetItems, w: World) => Record<string, string>;
  /** Query string, without '?'. */
  query?: string | ((t: TargetItems, w: World) => string);
  lock?: { kind: 'module' | 'cluster' | 'macroFamily'; owner: 'caller' | 'holder' };
  /** The call waits for a job that a job runner must run (the suite runs one beside the call). */
  waitsForJob?: true;
  /** Extra state the call needs, set after the world is restored. */
  setup?: (db: Db, w: World) => Promise<void>;
  reads?: true;
  forbidden: readonly Cell[];
  hidden?: readonly Cell[];
  readOnly?: readonly Cell[];
  unseen?: readonly Cell[];
  answer?: 'unauthorizedList' | 'messages' | 'errors';
  /** Cells that get 200 with the item named in notAuthorizedItems (massive edit: part 2 §6); the others an empty one. */
  notAuthorized?: readonly Cell[];
  /** The status an allowed call answers. */
  ok?: number | readonly number[];
  knownBug?: Partial<Record<Cell, string>>;
}

/** The upload `holderPreview` stores. */
const HOLDER_UPLOAD = 900_001;
/** A module upload of holder whose preview (nothing to do) waits for Apply or Cancel. */
async function holderPreview(db: Db): Promise<void> {
  const result = { counts: { created: 0, saved: 0, unchanged: 0, failed: 0 }, lines: [], preview: true };
  const [job] = await db.insert(jobs).values({ kind: 'upload-module', status: 'DONE', progress: 100, payload: { preview: true }, result, response: '', createdBy: 'holder', finishedAt: new Date() }).returning();
  await db.insert(uploads).values({ id: HOLDER_UPLOAD, type: 'MODULE_MASSIVE_CREATION', userId: 'holder', fileName: 'holder.xlsx', size: 1, content: Buffer.from('x'), jobId: job!.id, previewJobId: job!.id });
}

/** Roles that are not admin: the administration area refuses them all (DECISIONS "Administration"). */
const NOT_ADMIN = ['creator', 'editor', 'submitter', 'viewer'] as const;
/** May not edit the VLT item: the editor only views VLT; the submitter does not see it. */
const NO_EDIT = ['viewer', 'editor@VLT', 'submitter@VLT'] as const;
/** May not publish (submit grant): the editor has no submit level at all. */
const NO_SUBMIT = ['viewer', 'editor', 'submitter@VLT'] as const;
/** May not create (edit with the create rule): only admin and creator hold the rule. */
const NO_CREATE = ['editor', 'submitter', 'viewer'] as const;
/** May not delete or restore (the delete rule): only admin and creator hold it. */
const NO_DELETE = ['editor', 'submitter', 'viewer'] as const;
/** Spec part 1 §6 / part 2 §6: COPY is for admins and CREATORs with edit or submit; others get it disabled. */
const NO_COPY = ['viewer', 'editor', 'submitter'] as const;

/** May not import (edit with the import rule): only admin and creator hold it. */
const NO_IMPORT = ['editor', 'submitter', 'viewer'] as const;

/** A one-sheet workbook of these rows (the first is the header). */
async function workbookOf(fileName: string, rows: readonly (readonly string[])[]) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Import');
  for (const row of rows) sheet.addRow([...row]);
  return { fileName, content: Buffer.from(await workbook.xlsx.writeBuffer()) };
}

/** An Import Module workbook naming the target's module. */
const moduleWorkbook = (t: TargetItems) =>
  workbookOf('modules.xlsx', [
    ['Module name', 'Month', 'UPC', 'MH/EL'],
    [t.module, OPEN_MONTH, t.upc, 'MH'],
  ]);

/** Upload Files: the four header-only templates (nothing to merge) for the open release. */
const releaseFiles = async (): Promise<MultipartPart[]> => [
  ...RELEASE_FILE_KINDS.map((k) => ({ field: k, fileName: `${k}.csv`, content: Buffer.from(templateCsv(k)), type: 'text/csv' })),
  { field: 'releaseId', value: 'R2027' },
  { field: 'type', value: 'delta' },
];

/** An Import Cluster workbook putting the target's module in the target's cluster. */
const clusterWorkbook = (t: TargetItems) =>
  workbookOf('clusters.xlsx', [
    ['Cluster id', 'Month', 'Module name'],
    [t.cluster, OPEN_MONTH, t.module],
  ]);

const both: readonly Target[] = ['VLT', 'AUR'];
const moduleKey = (t: TargetItems) => [{ moduleName: t.module, monthId: OPEN_MONTH }];
const clusterKey = (t: TargetItems) => [{ clusterId: t.cluster, monthId: OPEN_MONTH }];
const filters = () => ({ monthId: [OPEN_MONTH] });
/** Both statuses: every live item of the month, so the rights alone decide what the answer names. */
const exportFilters = () => ({ monthId: [OPEN_MONTH], status: ['Published', 'Saved'] });
const moduleMassiveEdit = (t: TargetItems) => ({ massiveEditList: [{ moduleLabels: [t.module], monthIdList: [OPEN_MONTH], moduleDescription: 'Massive edit by the rights suite' }], toPublish: false });
const clusterMassiveEdit = (t: TargetItems) => ({ rowsClusterMassiveEdit: [{ clusterLabels: [t.cluster], clusterDescription: 'Massive edit by the rights suite' }], toPublish: false });
const exportRow: RightsRow = {
  targets: both,
  query: (_t, w) => `templateId=${w.moduleTemplateId}&status=Saved`,
  body: (t) => [{ moduleName: t.emptyModule, monthId: OPEN_MONTH }],
  // Contract/spec part 1 §6: export for admin, or an edit grant on a matching brand and zone.
  forbidden: NO_EDIT,
  ok: [200, 202],
};
/** Cluster exports: the same rule on the cluster's brand and the zones of its countries (the WIP cluster: status Saved). */
const clusterExportRow: RightsRow = {
  targets: both,
  query: (_t, w) => `templateId=${w.clusterTemplateId}&status=Saved`,
  body: (t) => [{ clusterName: t.cluster, monthId: OPEN_MONTH }],
  forbidden: NO_EDIT,
  ok: [200, 202],
};

export const WRITE_RIGHTS: Record<string, RightsRow> = {
  // ───────────── modules: locks, save, publish, copy (docs/LIFECYCLE.md) ─────────────
  'POST /api/module/lock': { targets: both, body: moduleKey, forbidden: [], readOnly: NO_EDIT, ok: 200 },
  // Presence (docs/LIVE.md): an item the caller may not see is refused as its own calls refuse it; a fresh tab each call.
  'PUT /api/presence': {
    targets: both,
    body: (t) => ({ tabId: randomUUID(), items: [{ kind: 'module', name: t.module, monthId: OPEN_MONTH, mode: 'viewing' }, { kind: 'cluster', name: t.cluster, monthId: OPEN_MONTH, mode: 'editing' }] }),
    forbidden: ['submitter@VLT'],
    ok: 204,
  },
  'DELETE /api/presence/{tabId}': { params: () => ({ tabId: randomUUID() }), forbidden: [], ok: 204 },
  'POST /api/module/unlock': {
    targets: both,
    query: 'forced=true',
    body: moduleKey,
    lock: { kind: 'module', owner: 'holder' },
    // forced: admin, or an edit right on the item.
    forbidden: NO_EDIT,
    ok: 200,
  },
  'POST /api/module/macroFamily/lock': {
    targets: both,
    body: (t) => [{ macroFamily: t.family, monthId: OPEN_MONTH }],
    // The edit right on every live module of the family in that month (each test family has one brand, so one right).
    forbidden: NO_EDIT,
    ok: 200,
  },
  'POST /api/module/macroFamily/unlock': {
    targets: both,
    query: 'forced=true',
    body: (t) => [{ macroFamily: t.family, monthId: OPEN_MONTH }],
    lock: { kind: 'macroFamily', owner: 'holder' },
    // A macro family has no brand: forcing its lock is for admins (module-lifecycle.service unlockFamilies).
    forbidden: NOT_ADMIN,
    ok: 200,
  },
  'POST /api/module/save': {
    targets: both,
    query: 'onlyDescription=false',
    body: (t) => ({
      moduleName: t.module,
      monthId: OPEN_MONTH,
      moduleDescription: 'Saved by the rights suite',
      productDtoList: [{ upc: t.upc, mustHave: false, moduleCompositionStatus: 'ADDED', minValue: 1 }],
    }),
    lock: { kind: 'module', owner: 'caller' },
    forbidden: NO_EDIT,
    ok: 200,
  },
  'POST /api/module/saveList': {
    targets: both,
    body: (t) => [{ moduleName: t.module, monthId: OPEN_MONTH, moduleDescription: 'Saved by the rights suite' }],
    lock: { kind: 'module', owner: 'caller' },
    answer: 'messages',
    forbidden: NO_EDIT,
    ok: 200,
  },
  'POST /api/module/publish': {
    targets: both,
    body: (t) => ({ moduleName: t.module, monthId: OPEN_MONTH }),
    lock: { kind: 'module', owner: 'caller' },
    forbidden: NO_SUBMIT,
    ok: 200,
  },
  'POST /api/module/publishList': {
    targets: both,
    body: (t) => [{ moduleName: t.module, monthId: OPEN_MONTH }],
    lock: { kind: 'module', owner: 'caller' },
    answer: 'errors',
    forbidden: NO_SUBMIT,
    ok: 200,
  },
  'POST /api/module/copyCompositions': {
    targets: both,
    body: (t) => ({ modules: [{ moduleName: t.module, monthId: OPEN_MONTH, destinationMonthList: [OTHER_OPEN_MONTH] }], toPublish: false }),
    forbidden: NO_COPY,
    ok: 200,
  },

  // Massive edit (part 2 §6): no edit right at all → 403; items outside the caller's grants → notAuthorizedItems.
  'POST /api/module/massiveEdit/': { targets: both, body: (t) => moduleMassiveEdit(t), forbidden: ['viewer'], notAuthorized: ['editor@VLT', 'submitter@VLT'], ok: 200 },
  'POST /api/module/massiveEdit': { targets: both, body: (t) => moduleMassiveEdit(t), forbidden: ['viewer'], notAuthorized: ['editor@VLT', 'submitter@VLT'], ok: 200 },
  // Spec part 1 §6: massive edit of the modules selected on home is for administrators.
  'POST /api/module/massiveEdit/selected': { targets: both, body: (t) => moduleMassiveEdit(t), forbidden: NOT_ADMIN, ok: 200 },

  // ───────────── modules: reads by POST (the answer holds what the caller may view) ─────────────
  // View right on every module (docs/LIFECYCLE.md "Publish"): the submitter cannot see VLT.
  'POST /api/module/checkForPublish': { reads: true, targets: both, body: moduleKey, forbidden: ['submitter@VLT'], ok: 200 },
  // Item versions (docs/versions.md): the view right on every module, like checkForPublish.
  'POST /api/module/publishDiff': { reads: true, targets: both, body: moduleKey, forbidden: ['submitter@VLT'], ok: 200 },
  'POST /api/module/details': { reads: true, targets: both, body: moduleKey, forbidden: [], unseen: ['submitter@VLT'], ok: 200 },
  'POST /api/module/modules': { reads: true, targets: both, body: (t) => ({ moduleDtoList: moduleKey(t) }), forbidden: [], unseen: ['submitter@VLT'], ok: 200 },
  'POST /api/module/importModules': {
    reads: true,
    targets: both,
    body: (t) => [{ moduleName: t.module, monthId: OPEN_MONTH }],
    forbidden: [],
    unseen: ['submitter@VLT'],
    ok: 200,
  },
  'POST /api/module/modulePerformances': {
    reads: true,
    targets: both,
    body: (t) => ({ moduleDto: { moduleName: t.module, monthId: OPEN_MONTH } }),
    forbidden: ['submitter@VLT'],
    ok: 200,
  },
  'POST /api/module/clusterAnalysis': { reads: true, targets: both, body: (t) => ({ modules: moduleKey(t) }), forbidden: [], unseen: ['submitter@VLT'], ok: 200 },
  'POST /api/module/filteredDetailsLego': {
    reads: true,
    targets: both,
    body: (t) => ({ moduleDtoList: moduleKey(t), flagNew: true }),
    forbidden: [],
    unseen: ['submitter@VLT'],
    ok: 200,
  },
  'POST /api/module/filteredDetailsNotLego': {
    reads: true,
    targets: both,
    body: (t) => ({ moduleDtoList: moduleKey(t), currentMonthId: OPEN_MONTH }),
    forbidden: [],
    unseen: ['submitter@VLT'],
    ok: 200,
  },
  // Module information (docs/module-calls.md): about the modules the caller may view, the others left out.
  'POST /api/module/percentage': { reads: true, targets: both, body: (t) => moduleKey(t), forbidden: [], unseen: ['submitter@VLT'], ok: 200 },
  'POST /api/module/pendingModuleInfo': { reads: true, targets: both, body: (t) => ({ moduleDtoList: moduleKey(t) }), forbidden: [], unseen: ['submitter@VLT'], ok: 200 },
  'POST /api/module/filteredDetails': { reads: true, targets: both, body: (t) => ({ moduleDtoList: moduleKey(t) }), forbidden: [], unseen: ['submitter@VLT'], ok: 200 },
  'POST /api/module/filteredDetailsPty': { reads: true, targets: both, body: (t) => ({ moduleDtoList: moduleKey(t) }), forbidden: [], unseen: ['submitter@VLT'], ok: 200 },
  'POST /api/module/publishedProductModule': {
    reads: true,
    body: () => ({ monthId: OPEN_MONTH, model: 'AU1000', color: '001', size: '52', materialCode: 'AU1000', skuCode: 'AU1000-001' }),
    forbidden: [],
    ok: 200,
  },
  'POST /api/module/extraSellIn': {
    reads: true,
    targets: both,
    body: (t) => ({ moduleName: t.module, monthId: OPEN_MONTH, materialCode: 'AU1000', skuCode: 'AU1000-001' }),
    forbidden: ['submitter@VLT'],
    ok: 200,
  },
  'POST /api/product/filtered': { reads: true, body: () => ({ monthId: OPEN_MONTH, brand: ['AUR'], collection: ['SUN'] }), forbidden: [], ok: 200 },
  'POST /api/product/filters': { reads: true, body: () => ({}), forbidden: [], ok: 200 },
  'POST /api/month/checkLego': { reads: true, body: () => ({ monthId: OPEN_MONTH, brandCode: 'AUR', collection: 'SUN' }), forbidden: [], ok: 200 },

  // ───────────── home search ─────────────
  'POST /api/module/filtered': { reads: true, body: filters, forbidden: [], unseen: ['submitter'], ok: 200 },
  'POST /api/module/filteredDry': { reads: true, body: filters, forbidden: [], unseen: ['submitter'], ok: 200 },
  'POST /api/module/filters': { reads: true, body: filters, forbidden: [], unseen: ['submitter'], ok: 200 },
  'POST /api/module/macroFamily': { reads: true, body: filters, forbidden: [], unseen: ['submitter'], ok: 200 },
  'POST /api/cluster/filtered': { reads: true, body: filters, forbidden: [], unseen: ['submitter'], ok: 200 },
  'POST /api/cluster/filteredDry': { reads: true, body: filters, forbidden: [], unseen: ['submitter'], ok: 200 },
  'POST /api/cluster/filters': { reads: true, body: filters, forbidden: [], unseen: ['submitter'], ok: 200 },
  // ───────────── Export Data page: export rights (admin, or an edit grant on brand and zone) ─────────────
  'POST /api/module/exportFilters': { reads: true, body: exportFilters, forbidden: ['viewer'], unseen: ['editor', 'submitter'], ok: 200 },
  'POST /api/cluster/exportFilters': { reads: true, body: exportFilters, forbidden: ['viewer'], unseen: ['editor', 'submitter'], ok: 200 },
  'POST /api/module/exportSearch': { reads: true, body: exportFilters, forbidden: ['viewer'], unseen: ['editor', 'submitter'], ok: 200 },
  'POST /api/cluster/exportSearch': { reads: true, body: exportFilters, forbidden: ['viewer'], unseen: ['editor', 'submitter'], ok: 200 },
  'POST /api/cluster/pendingAreaInitialFilters': { reads: true, body: () => ({ viewType: 'module' }), forbidden: ['viewer'], unseen: ['editor', 'submitter'], ok: 200 },
  'POST /api/module/pendingArea': { reads: true, body: () => ({ months: [OPEN_MONTH] }), forbidden: ['viewer'], unseen: ['editor', 'submitter'], ok: 200 },
  'POST /api/cluster/pendingArea': { reads: true, body: () => ({ months: [OPEN_MONTH] }), forbidden: ['viewer'], unseen: ['editor', 'submitter'], ok: 200 },
  // ───────────── Disco/Removed Area: admin or any edit grant (canUseDiscoArea); rows of modules the caller may view ─────────────
  'POST /api/sku/skuDiscoInfo': { reads: true, body: () => ({ months: [OPEN_MONTH] }), forbidden: ['viewer'], unseen: ['submitter'], ok: 200 },
  'POST /api/sku/skuDeletedInfo': { reads: true, body: () => ({ pageIndex: 0 }), forbidden: ['viewer'], unseen: ['submitter'], ok: 200 },
  'POST /api/sku/skuDiscoInfoFilters': { reads: true, body: () => ({ brandCode: ['AUR'] }), forbidden: ['viewer'], unseen: ['submitter'], ok: 200 },
  'POST /api/sku/skuDeletedInfoFilters': { reads: true, body: () => ({}), forbidden: ['viewer'], unseen: ['submitter'], ok: 200 },
  // A SKU that is not discontinued (the world's are active) is not found: the rights come first (viewer 403).
  'POST /api/sku/replacementProposals': { reads: true, targets: both, body: (t) => ({ upc: t.upc }), forbidden: ['viewer'], ok: 404 },
  'POST /api/cluster/statisticFiltersByBrand': { reads: true, body: () => ({ monthId: OPEN_MONTH, brand: [], collection: [] }), forbidden: [], ok: 200 },
  'POST /api/cluster/statistic': {
    reads: true,
    body: () => ({ monthId: OPEN_MONTH, filters: [{ field: 'marketingTheme', searchValue: 'CORE', minRange: 0, maxRange: 100 }] }),
    forbidden: [],
    unseen: ['submitter'],
    ok: 200,
  },

  // ───────────── creation from home (DECISIONS "Creating from home") ─────────────
  'POST /api/module/macroFamily/create': { body: () => ({ macroFamily: 'NEWFAMILY' }), forbidden: NO_CREATE, ok: 200 },
  'POST /api/module/checkIfExists': {
    reads: true,
    body: () => ({ moduleName: 'BRANDNEW', monthId: OPEN_MONTH, moduleLabel: 'Brand new' }),
    forbidden: [],
    ok: 200,
  },
  'POST /api/module/checkIfExists/': {
    reads: true,
    body: () => ({ moduleName: 'BRANDNEW', monthId: OPEN_MONTH, moduleLabel: 'Brand new' }),
    forbidden: [],
    ok: 200,
  },
  'POST /api/module/create': {
    targets: both,
    body: (t) => ({
      moduleName: `NEW${t.brand}`,
      moduleLabel: `New ${t.brand}`,
      monthId: OPEN_MONTH,
      macroFamily: t.family,
      brand: t.brand,
      collection: 'SUN',
      starZones: ['EU'],
    }),
    forbidden: NO_CREATE,
    ok: 200,
  },
  'POST /api/cluster/checkIfExists': {
    reads: true,
    body: () => ({ clusterId: 'BRANDNEW', clusterLabel: 'Brand new', monthId: OPEN_MONTH }),
    forbidden: [],
    ok: 200,
  },
  'POST /api/cluster/checkIfExists/': {
    reads: true,
    body: () => ({ clusterId: 'BRANDNEW', clusterLabel: 'Brand new', monthId: OPEN_MONTH }),
    forbidden: [],
    ok: 200,
  },
  'POST /api/cluster/massiveCreation': {
    targets: both,
    body: (t, w) => [newCluster(t, w)],
    forbidden: NO_CREATE,
    ok: 200,
  },
  'POST /api/cluster/massiveCreation/': {
    targets: both,
    body: (t, w) => [newCluster(t, w)],
    forbidden: NO_CREATE,
    ok: 200,
  },
  // Option lists of a release (docs/module-calls.md): the values among the items the caller may view.
  'POST /api/cluster/brand': { reads: true, body: () => ({ releaseId: 'R2027' }), forbidden: [], unseen: ['submitter'], ok: 200 },
  'POST /api/cluster/planningChannel': { reads: true, body: () => ({ releaseId: 'R2027' }), forbidden: [], unseen: ['submitter'], ok: 200 },
  'POST /api/cluster/getGenericName': { reads: true, body: () => ({ collection: 'SUN', brand: 'AUR', country: 'IT' }), forbidden: [], ok: 200 },

  // ───────────── clusters: locks, save, publish, copy ─────────────
  'POST /api/cluster/lock': { targets: both, body: clusterKey, forbidden: [], readOnly: NO_EDIT, ok: 200 },
  'POST /api/cluster/unlock': {
    targets: both,
    query: 'forced=true',
    body: clusterKey,
    lock: { kind: 'cluster', owner: 'holder' },
    forbidden: NO_EDIT,
    ok: 200,
  },
  'POST /api/cluster/save': {
    targets: both,
    query: 'onlyDescription=false',
    body: (t) => [
      {
        clusterId: t.cluster,
        monthId: OPEN_MONTH,
        clusterDescription: 'Saved by the rights suite',
        modules: [{ moduleName: t.submittedModule, clusterCompositionStatus: 'ADDED' }],
      },
    ],
    lock: { kind: 'cluster', owner: 'caller' },
    // Spec part 2 §7: the save answers errorsMap and unauthorizedList ('Cannot edit cluster(s) …').
    answer: 'unauthorizedList',
    forbidden: NO_EDIT,
    ok: 200,
  },
  // The view right before the lock: a cluster the caller may not view answers as an unknown one (404), lock or not.
  'POST /api/cluster/checkForPublish': { reads: true, targets: both, body: clusterKey, lock: { kind: 'cluster', owner: 'caller' }, forbidden: [], hidden: ['submitter@VLT'], ok: 200 },
  // Item versions (docs/versions.md): the view right on every cluster.
  'POST /api/cluster/publishDiff': { reads: true, targets: both, body: clusterKey, forbidden: ['submitter@VLT'], ok: 200 },
  'POST /api/cluster/publish': {
    targets: both,
    body: clusterKey,
    lock: { kind: 'cluster', owner: 'caller' },
    forbidden: NO_SUBMIT,
    ok: 200,
  },
  'POST /api/cluster/copyCompositions': {
    targets: both,
    body: (t) => ({ clusters: [{ clusterId: t.cluster, monthId: OPEN_MONTH, destinationMonthList: [OTHER_OPEN_MONTH] }], toPublish: false }),
    waitsForJob: true,
    forbidden: NO_COPY,
    ok: 200,
  },

  'POST /api/cluster/massiveEdit/': { targets: both, body: (t) => clusterMassiveEdit(t), forbidden: ['viewer'], notAuthorized: ['editor@VLT', 'submitter@VLT'], ok: 200 },
  'POST /api/cluster/massiveEdit': { targets: both, body: (t) => clusterMassiveEdit(t), forbidden: ['viewer'], notAuthorized: ['editor@VLT', 'submitter@VLT'], ok: 200 },
  'POST /api/cluster/massiveEdit/classification': {
    targets: both,
    body: (t) => ({ rowsClusterClassificationMassiveEdit: [{ clusterLabels: [t.cluster], classificationsToAdd: ['RIGHTS'] }] }),
    forbidden: ['viewer'],
    notAuthorized: ['editor@VLT', 'submitter@VLT'],
    ok: 200,
  },

  // ───────────── cluster editor reads ─────────────
  'POST /api/cluster/clusterDetails': { reads: true, targets: both, body: clusterKey, forbidden: [], unseen: ['submitter@VLT'], ok: 200 },
  'POST /api/cluster/rangeFacingDto': { reads: true, targets: both, body: clusterKey, forbidden: [], unseen: ['submitter@VLT'], ok: 200 },
  'POST /api/cluster/clusterPercentage': {
    reads: true,
    targets: both,
    unseen: ['submitter@VLT'],
    body: (t) => [{ clusterId: t.cluster, monthId: OPEN_MONTH, modules: [{ moduleName: t.submittedModule, clusterCompositionStatus: 'ADDED' }] }],
    forbidden: [],
    ok: 200,
  },
  'POST /api/cluster/moduleSearch': { reads: true, body: () => ({ monthId: [OPEN_MONTH], country: ['IT'] }), forbidden: [], unseen: ['submitter'], ok: 200 },
  'POST /api/cluster/discontinuedModules': { reads: true, targets: both, body: clusterKey, forbidden: [], unseen: ['submitter@VLT'], ok: 200 },
  'POST /api/cluster/moduleComposition': {
    reads: true,
    targets: both,
    body: (t) => ({ moduleName: t.module, monthId: OPEN_MONTH }),
    forbidden: ['submitter@VLT'],
    ok: 200,
  },

  // ───────────── suggested clusters (DECISIONS "Suggested clusters") ─────────────
  'POST /api/cluster/suggestList': { reads: true, body: () => ({ country: [] }), forbidden: [], unseen: ['submitter'], ok: 200 },
  'POST /api/cluster/accept': {
    targets: both,
    body: (t) => ({ assortmentId: t.suggestion }),
    // An edit grant on the suggestion's scope; a suggestion the caller cannot see does not exist for them.
    forbidden: ['viewer', 'editor@VLT'],
    hidden: ['submitter@VLT'],
    ok: 200,
  },
  'POST /api/cluster/reject': {
    targets: both,
    body: (t) => ({ assortmentId: t.suggestion, message: 'Not this season' }),
    forbidden: ['viewer', 'editor@VLT'],
    hidden: ['submitter@VLT'],
    ok: 200,
  },

  // ───────────── deletion and restore (docs/DELETION.md; canDelete) ─────────────
  'DELETE /api/module': { targets: both, body: moduleKey, forbidden: NO_DELETE, ok: 200 },
  'POST /api/module/deleteFromMonth': { targets: both, body: (t) => [{ moduleName: t.module, monthIdFrom: OPEN_MONTH }], forbidden: NO_DELETE, ok: 200 },
  'DELETE /api/cluster': { targets: both, body: clusterKey, forbidden: NO_DELETE, ok: 200 },
  'POST /api/cluster/deleteFromMonth': { targets: both, body: (t) => [{ clusterId: t.cluster, monthIdFrom: OPEN_MONTH }], forbidden: NO_DELETE, ok: 200 },
  'POST /api/module/deleted': {
    reads: true,
    query: 'pageNumber=0&pageSize=50',
    body: () => ({ status: ['DELETION_PENDING'] }),
    forbidden: [],
    unseen: ['submitter'],
    ok: 200,
  },
  'POST /api/cluster/deleted': {
    reads: true,
    query: 'pageNumber=0&pageSize=50',
    body: () => ({ status: ['DELETION_PENDING'] }),
    forbidden: [],
    unseen: ['submitter'],
    ok: 200,
  },
  'POST /api/module/restore': { targets: both, body: (t) => [{ moduleName: t.deletedModule }], forbidden: NO_DELETE, ok: 200 },
  'POST /api/cluster/restore': { targets: both, body: (t) => [{ clusterId: t.deletedCluster }], forbidden: NO_DELETE, ok: 200 },
  'POST /api/deletion/restore': { targets: both, query: 'viewType=module', body: (t) => [{ moduleName: t.deletedModule }], forbidden: NO_DELETE, ok: 200 },

  // ───────────── client classifications: admins and anyone with an edit grant (DECISIONS) ─────────────
  'POST /api/classification/create': { query: 'classificationLabel=NEW_CLASS', forbidden: ['viewer'], ok: 200 },
  'DELETE /api/classification/delete': { query: (_t, w) => `classificationId=${w.classificationId}`, forbidden: ['viewer'], ok: 200 },

  // ───────────── administration: admin only (spec part 1 §6; DECISIONS "Administration") ─────────────
  'POST /api/user/insertCreator': { body: (_t, w) => ({ email: w.allowedEmail, country: 'IT' }), forbidden: NOT_ADMIN, ok: 200 },
  'POST /api/user/save': {
    body: (_t, w) => ({
      userId: w.userIds.target,
      role: 'EDITOR',
      grants: [
        { grantCode: 'AUR', grantType: 'brand', permissionType: 'view' },
        { grantCode: 'NA', grantType: 'starszone', permissionType: 'view' },
      ],
    }),
    forbidden: NOT_ADMIN,
    ok: 200,
  },
  'POST /api/user/{userId}/enable': { params: (_t, w) => ({ userId: String(w.userIds.target) }), forbidden: NOT_ADMIN, ok: 200 },
  'POST /api/user/{userId}/disable': { params: (_t, w) => ({ userId: String(w.userIds.target) }), forbidden: NOT_ADMIN, ok: 200 },
  'POST /api/brand/save': {
    // The brand's current map plus `target` at view: a valid change that touches one user only.
    body: (_t, w) => ({
      brand: 'VLT',
      permissionMap: {
        view: [w.userIds.admin, w.userIds.creator, w.userIds.editor, w.userIds.viewer, w.userIds.holder, w.userIds.target],
        edit: [w.userIds.admin, w.userIds.creator, w.userIds.holder],
        submit: [w.userIds.admin, w.userIds.creator],
      },
    }),
    forbidden: NOT_ADMIN,
    ok: 200,
  },
  'POST /api/release/createNew': {
    // Creating is refused while a release is open: close R2027 first, so an admin's call succeeds.
    setup: async (db) => {
      await db.update(releases).set({ status: 'CLOSED' });
    },
    body: () => ({ releaseId: 'R2028' }),
    forbidden: NOT_ADMIN,
    ok: 200,
  },
  'POST /api/release/changeStatus': { body: () => ({ releaseId: 'R2027', action: 'close' }), forbidden: NOT_ADMIN, ok: 200 },
  'POST /api/release/publish': { body: () => ({ releaseId: 'R2027' }), forbidden: NOT_ADMIN, ok: 200 },
  'POST /api/release/publishViewer': { body: () => ({ releaseId: 'R2027' }), forbidden: NOT_ADMIN, ok: 200 },

  // ───────────── Import Data (multipart): admin, or edit with the import rule (part 1 §6) ─────────────
  'POST /api/upload/module': { multipart: (t) => moduleWorkbook(t), forbidden: NO_IMPORT, ok: 200 },
  'POST /api/upload/cluster': { multipart: (t) => clusterWorkbook(t), forbidden: NO_IMPORT, ok: 200 },
  // The preview of holder's module upload (docs/IMPORT-PREVIEW.md): only its owner or an admin decides on it.
  'POST /api/upload/{uploadId}/apply': { setup: holderPreview, params: () => ({ uploadId: String(HOLDER_UPLOAD) }), body: () => ({}), forbidden: NOT_ADMIN, ok: 200 },
  'POST /api/upload/{uploadId}/cancel': { setup: holderPreview, params: () => ({ uploadId: String(HOLDER_UPLOAD) }), forbidden: NOT_ADMIN, ok: 200 },
  // Upload Files (/uploadTwo, the four-file release loader): admins only (docs/IMPORTS.md "Upload Files").
  'POST /data/fileLoader/import': { multipart: () => releaseFiles(), forbidden: NOT_ADMIN, ok: 200 },
  'POST /data/fileLoader/{uploadId}/apply': { setup: releasePreview, params: () => ({ uploadId: String(RELEASE_PREVIEW_UPLOAD) }), forbidden: NOT_ADMIN, ok: 200 },

  // ───────────── exports (/data prefix): jobs the call waits for ─────────────
  'POST /data/export/xls/module': exportRow,
  'POST /data/export/xls_massive/module': exportRow,
  'POST /data/export/xls/photo/module': exportRow,
  'POST /data/export/xls/photo_massive/module': exportRow,
  'POST /data/export/pdf/module': exportRow,
  'POST /data/export/pdf_massive/module': exportRow,
  'POST /data/export/xls/cluster': clusterExportRow,
  'POST /data/export/xls_massive/cluster': clusterExportRow,
  'POST /data/export/xls/photo/cluster': clusterExportRow,
  'POST /data/export/xls/photo_massive/cluster': clusterExportRow,
  'POST /data/export/pdf/cluster': clusterExportRow,
  'POST /data/export/pdf_massive/cluster': clusterExportRow,
};

function newCluster(t: TargetItems, w: World) {
  return {
    clusterId: `NEW${t.brand}`,
    clusterLabel: `New ${t.brand}`,
    monthId: OPEN_MONTH,
    brandCode: t.brand,
    collection: 'SUN',
    lias: ['LIA01'],
    starZones: ['EU'],
    stores: [{ codiceStoreSap: w.store.codiceStoreSap, starsCustomer: w.store.starsCustomer, customerSegmentation: w.store.customerSegmentation }],
  };
}

/**
 * GET routes that refuse some role, or whose URL needs real ids. Every other protected GET is run with
 * `urlFor`'s defaults and must answer every role (not 401, 403 or 5xx).
 */
export const READ_RIGHTS: Record<string, RightsRow> = {
  // Disco/Removed Area (docs/disco-area.md): admin or any edit grant; the filter options name only what the caller may view.
  'GET /api/sku/skuDiscoInfoFilters': { forbidden: ['viewer'], unseen: ['submitter'], ok: 200 },
  'GET /api/sku/skuDeletedInfoFilters': { forbidden: ['viewer'], unseen: ['submitter'], ok: 200 },
  'GET /api/sku/skuDiscoAlert/': { forbidden: ['viewer'], ok: 200 },
  'GET /api/user/': { forbidden: NOT_ADMIN, ok: 200 },
  'GET /api/user/allCreators': { forbidden: NOT_ADMIN, ok: 200 },
  'GET /api/user/allNoGrants': { forbidden: NOT_ADMIN, ok: 200 },
  'GET /api/brand/allBrandsWithUsers': { forbidden: NOT_ADMIN, ok: 200 },
  // DECISIONS: admin only, although the spec's Upload Files calls it without the auth header.
  'GET /api/release/all': { forbidden: NOT_ADMIN, ok: 200 },
  'GET /api/cluster/{clusterId}/months': {
    targets: both,
    params: (t) => ({ clusterId: t.cluster }),
    query: `monthId=${OPEN_MONTH}`,
    forbidden: ['submitter@VLT'],
    ok: 200,
  },
  'GET /api/module/{moduleName}/months': {
    targets: both,
    params: (t) => ({ moduleName: t.module }),
    query: `monthId=${OPEN_MONTH}&purpose=delete`,
    // Like its cluster twin above: months of a module the caller cannot view are not theirs to know.
    forbidden: ['submitter@VLT'],
    ok: 200,
  },
  // Item versions (docs/versions.md): history and one version need the view right on the item (version 1 = its creation).
  'GET /api/module/history': { targets: both, query: (t) => `moduleName=${t.module}&monthId=${OPEN_MONTH}`, forbidden: ['submitter@VLT'], ok: 200 },
  'GET /api/module/history/version/{n}': {
    targets: both,
    params: () => ({ n: '1' }),
    query: (t) => `moduleName=${t.module}&monthId=${OPEN_MONTH}`,
    forbidden: ['submitter@VLT'],
    ok: 200,
  },
  'GET /api/cluster/history': { targets: both, query: (t) => `clusterId=${t.cluster}&monthId=${OPEN_MONTH}`, forbidden: ['submitter@VLT'], ok: 200 },
  'GET /api/cluster/history/version/{n}': {
    targets: both,
    params: () => ({ n: '1' }),
    query: (t) => `clusterId=${t.cluster}&monthId=${OPEN_MONTH}`,
    forbidden: ['submitter@VLT'],
    ok: 200,
  },
  // A job and an export file are their owner's (holder here) or an admin's.
  'GET /api/upload/{uploadId}/preview': { setup: holderPreview, params: () => ({ uploadId: String(HOLDER_UPLOAD) }), reads: true, forbidden: NOT_ADMIN, ok: 200 },
  'GET /api/jobs/{id}': { params: (_t, w) => ({ id: String(w.holderJobId) }), forbidden: NOT_ADMIN, ok: 200 },
  // The live event stream (read up to its first frame, then hung up: finite-inject.ts), a fresh tab each call.
  'GET /api/events': { query: () => `tab=${randomUUID()}`, reads: true, forbidden: [], ok: 200 },
  'GET /data/export/files/{id}': { params: (_t, w) => ({ id: String(w.holderExportId) }), forbidden: [], hidden: NOT_ADMIN, ok: 200 },
  // Everyone's own exports (an admin's: everybody's): nobody is refused.
  'GET /api/exportStatus/': { forbidden: [], ok: 200 },
  'GET /data/fileLoader/template/{file}': { params: () => ({ file: 'module' }), query: 'format=xlsx', forbidden: NOT_ADMIN, ok: 200 },
  'GET /data/fileLoader/release/{releaseId}/{file}': { params: () => ({ releaseId: 'R2027', file: 'cluster' }), forbidden: NOT_ADMIN, ok: 200 },
  'GET /data/images/{upc}/{view}.png': { params: (t) => ({ upc: t.upc, view: '1' }), forbidden: [], ok: 200 },
  'GET /api/store/bySap/{codiceStoreSap}': { params: (_t, w) => ({ codiceStoreSap: w.store.codiceStoreSap }), forbidden: [], ok: 200 },
  'GET /api/month/checkLego': { query: `monthId=${OPEN_MONTH}&brandCode=AUR&collection=SUN`, forbidden: [], ok: 200 },
  'GET /api/templates/getByTemplatesType': { query: 'templatesType=modulo', forbidden: [], ok: 200 },
};

/**
 * Routes left out of /api/openapi.json (`schema.hide`), which the walk of the description cannot see:
 * 'public', or their rights. Fastify's route tree is compared with the description, so a new hidden
 * route fails the suite until it is listed here.
 */
export const UNDOCUMENTED_ROUTES: Record<string, 'public' | RightsRow> = {
  // The description itself and its browsable page (openapi.ts).
  'GET /api/openapi.json': 'public',
  'GET /api/docs': 'public',
  'GET /api/docs/': 'public',
  'GET /api/docs/json': 'public',
  'GET /api/docs/yaml': 'public',
  'GET /api/docs/static/index.html': 'public',
  'GET /api/docs/static/swagger-initializer.js': 'public',
  'GET /api/docs/{*}': 'public',
  // The user list without its trailing slash (users.routes.ts).
  'GET /api/user': { forbidden: NOT_ADMIN, ok: 200 },
};
