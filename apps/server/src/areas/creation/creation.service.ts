/**
 * Creating macro families, modules and clusters from home (part 1 §4 "Creating a module", §5; part 2
 * §2 "Cluster creation", §5). The request schemas (packages/shared/src/creation.ts) already enforce
 * the text rules; here come the rules that need the database: the month is open, the codes exist, the
 * caller may create for the brand and zone, and the item does not exist yet. Each creation is one
 * transaction, serialised per key, and audited as `create`.
 */
import { compareFamilies } from '@bo/shared/search';
import { CREATION_TEXTS, type ClusterCreateParsed, type ClusterExistsRequest, type MacroFamily, type ModuleExistsRequest } from '@bo/shared/creation';
import type { ClusterDto } from '@bo/shared/clusters';
import type { ModuleDto } from '@bo/shared/modules';
import { compareMonthIds } from '@bo/shared/months';
import { canCreate, canCreateAny } from '@bo/shared/permissions';
import type { z } from 'zod';
import type { Grant } from '@bo/shared/grants';
import type { moduleCreateSchema } from '@bo/shared/creation';
import type { Queryable } from '../../db/client.js';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, conflict, forbidden, notFound, ruleBroken } from '../../lib/errors.js';
import { toClusterDtos } from '../../items/cluster/clusters.repository.js';
import { prepareRecreation } from '../../items/lifecycle/recreation.repository.js';
import { toModuleDtos } from '../../items/module/modules.repository.js';
import { monthStateOf, type MonthState } from '../../items/lifecycle/months.repository.js';
import { unknownClassificationIds, unknownLiaCodes } from '../../items/lifecycle/reference-data.repository.js';
import * as repo from './creation.repository.js';

export type ModuleCreateParsed = z.output<typeof moduleCreateSchema>;

export const CREATION_MESSAGES = {
  monthUnknown: (m: string) => `The month ${m} does not exist.`,
  monthClosed: (m: string) => `The month ${m} is closed: nothing can be created in it.`,
  releaseClosed: (m: string) => `The release of the month ${m} is closed: nothing can be created in it.`,
  unknown: (what: string, codes: readonly string[]) => `Unknown ${what}: ${codes.join(', ')}`,
  nameTaken: (what: 'module name' | 'cluster id', key: string, monthIds: readonly string[]) =>
    `The ${what} ${key} already exists in ${[...new Set(monthIds)].sort(compareMonthIds).join(', ')}.`,
  labelTaken: (what: 'module' | 'cluster', label: string, key: string, monthId: string) =>
    `The ${what} label ${label} is already used by the ${what} ${key} in ${monthId}.`,
  familyExists: (name: string) => `The macro family ${name} already exists.`,
  noFamilyRight: "You don't have the right to create macro families.",
  storeUnknown: (sap: string) => `No store has the SAP code ${sap}.`,
  storeMismatch: (sap: string, jda: string) => `The SAP code ${sap} belongs to the store ${jda}.`,
  storeCustomer: (sap: string, customer: string) => `The store ${sap} belongs to the Stars customer ${customer}.`,
  storeSegment: (sap: string, segment: string) => `The store ${sap} has the segment ${segment}.`,
  storeZone: (sap: string, zone: string) => `The store ${sap} is in the stars zone ${zone}, which is not one of the cluster's stars zones.`,
  duplicateInRequest: (key: string) => `The cluster id ${key} is given twice.`,
  releaseUnknown: (id: string) => `The release ${id} does not exist.`,
} as const;

/** Several reasons go in one message, separated by ';' (the form shows one per line). */
const joined = (messages: readonly string[]) => messages.join(';');

async function assertMonthWritable(db: Queryable, monthId: string): Promise<MonthState> {
  const month = await monthStateOf(db, monthId);
  if (!month.exists) throw notFound(CREATION_MESSAGES.monthUnknown(monthId), 'monthNotFound');
  if (month.releaseClosed) throw ruleBroken('releaseClosed', CREATION_MESSAGES.releaseClosed(monthId));
  if (!month.open) throw ruleBroken('monthClosed', CREATION_MESSAGES.monthClosed(monthId));
  return month;
}

/** Answers the codes that do not exist, once each, in the order given. */
type UnknownOf = (db: Queryable, codes: readonly string[]) => Promise<string[]>;

/** The unknown codes of a reference table checked through creation's repository. */
const unknownIn =
  (table: Parameters<typeof repo.existingCodes>[1]): UnknownOf =>
  async (db, codes) => {
    const known = await repo.existingCodes(db, table, codes);
    return [...new Set(codes)].filter((c) => !known.has(c));
  };

/** Reference codes that do not exist, as messages. */
async function unknownCodes(db: Queryable, checks: readonly [UnknownOf, string, readonly string[]][]): Promise<string[]> {
  const messages: string[] = [];
  for (const [unknownOf, what, codes] of checks) {
    const missing = await unknownOf(db, codes);
    if (missing.length) messages.push(CREATION_MESSAGES.unknown(what, missing));
  }
  return messages;
}

// ───────────────────────────── macro families ─────────────────────────────

/** GET /api/module/macroFamily/all: best sellers and newness first, then alphabetical. */
export async function listMacroFamilies(ctx: ServiceContext): Promise<MacroFamily[]> {
  return (await repo.listFamilies(ctx.db)).sort(compareFamilies);
}

/** POST /api/module/macroFamily/create: a new (ordinary) family; names compare case-insensitively. */
export async function createMacroFamily(ctx: ServiceContext, name: string): Promise<MacroFamily> {
  if (!canCreateAny(ctx.user.grants)) throw forbidden(CREATION_MESSAGES.noFamilyRight);
  const row = await ctx.db.transaction(async (tx) => {
    await repo.lockKeyForCreation(tx, 'macroFamily', name);
    const existing = await repo.familyByName(tx, name);
    if (existing) throw conflict(CREATION_MESSAGES.familyExists(existing.macroFamily), 'macroFamilyAlreadyExists');
    const saved = await repo.insertFamily(tx, name);
    await audit(tx, { username: ctx.user.username, action: 'create', itemType: 'macroFamily', itemKey: name, requestId: ctx.requestId });
    return saved;
  });
  return { macroFamily: row.macroFamily, specialKind: row.specialKind };
}

// ───────────────────────────── modules ─────────────────────────────

/** Why a module cannot be created (empty: it can). */
async function moduleConflicts(db: Queryable, body: { moduleName: string; monthId: string; moduleLabel: string }): Promise<string[]> {
  const reasons: string[] = [];
  const named = await repo.liveKeyMonths(db, 'module', body.moduleName);
  if (named.length) reasons.push(CREATION_MESSAGES.nameTaken('module name', named[0]!.key, named.map((n) => n.monthId)));
  const labelled = await repo.liveLabelInMonth(db, 'module', body.moduleLabel, body.monthId);
  if (labelled) reasons.push(CREATION_MESSAGES.labelTaken('module', body.moduleLabel, labelled, body.monthId));
  return reasons;
}

/**
 * POST /api/module/checkIfExists/: `{ description: 'OK' }` when a module with this name (in any month)
 * and this label (in the month) does not exist yet; else 409 `moduleAlreadyExists` with the reasons.
 */
export async function checkModuleExists(ctx: ServiceContext, body: ModuleExistsRequest): Promise<{ description: string }> {
  const reasons = await moduleConflicts(ctx.db, body);
  if (reasons.length) throw conflict(joined(reasons), 'moduleAlreadyExists');
  return { description: CREATION_TEXTS.checkPassed };
}

/**
 * The checks of a new module that need the database, before its transaction: the month is open, the
 * codes exist, the caller may create for the brand and zones. Throws as the create call answers. Used
 * by the create call and by Import Module (docs/IMPORTS.md).
 */
export async function checkNewModule(db: Queryable, grants: readonly Grant[], body: ModuleCreateParsed): Promise<void> {
  await assertMonthWritable(db, body.monthId);
  const unknown = await unknownCodes(db, [
    [unknownIn('brand'), 'brand', [body.brand]],
    [unknownIn('collection'), 'collection', [body.collection]],
    [unknownIn('family'), 'macro family', [body.macroFamily]],
    [unknownIn('zone'), 'stars zones', body.starZones],
    [unknownIn('channel'), 'planning channel', body.planningChannel ? [body.planningChannel] : []],
  ]);
  if (unknown.length) throw badRequest(joined(unknown), undefined, 'invalidModule');
  if (!canCreate(grants, { brand: body.brand, zones: body.starZones })) throw forbidden(CREATION_TEXTS.noCreateRight);
}

/**
 * Writes a new WIP module without SKUs in `tx` (serialised per name; 409 when the name or the label is
 * taken), audited as `create`. The caller's transaction may go on writing (the import fills it).
 */
export async function insertNewModule(tx: Queryable, caller: { username: string; requestId?: string | undefined }, body: ModuleCreateParsed, auditExtra: Record<string, unknown> = {}) {
  await repo.lockKeyForCreation(tx, 'module', body.moduleName);
  const reasons = await moduleConflicts(tx, body);
  if (reasons.length) throw conflict(joined(reasons), 'moduleAlreadyExists');
  const createdAfterDelete = await prepareRecreation(tx, 'module', body.moduleName, body.monthId);
  const saved = await repo.insertModule(
    tx,
    {
      moduleName: body.moduleName,
      monthId: body.monthId,
      moduleLabel: body.moduleLabel,
      moduleDescription: body.moduleDescription,
      macroFamily: body.macroFamily,
      brandCode: body.brand,
      collection: body.collection,
      planningChannelId: body.planningChannel ?? null,
      status: 'WIP',
      newModule: body.newModule,
      initialSize: body.initialSize ?? null,
      createdAfterDelete,
      createdBy: caller.username,
      updatedBy: caller.username,
    },
    body.starZones,
  );
  await audit(tx, {
    username: caller.username,
    action: 'create',
    itemType: 'module',
    itemKey: saved.moduleName,
    monthId: saved.monthId,
    ...(caller.requestId ? { requestId: caller.requestId } : {}),
    summary: {
      moduleLabel: saved.moduleLabel,
      macroFamily: saved.macroFamily,
      brand: saved.brandCode,
      collection: saved.collection,
      starZones: body.starZones,
      initialSize: saved.initialSize,
      createdAfterDelete,
      ...auditExtra,
    },
  });
  return saved;
}

/** POST /api/module/create: a new WIP module without SKUs, in an open month. */
export async function createModule(ctx: ServiceContext, body: ModuleCreateParsed): Promise<ModuleDto> {
  await checkNewModule(ctx.db, ctx.user.grants, body);
  const row = await ctx.db.transaction((tx) => insertNewModule(tx, { username: ctx.user.username, requestId: ctx.requestId }, body));
  const [dto] = await toModuleDtos(ctx.db, [row], { lockTtlMinutes: ctx.config.LOCK_TTL_MINUTES });
  return dto!;
}

// ───────────────────────────── clusters ─────────────────────────────

async function clusterConflicts(db: Queryable, body: { clusterId: string; monthId: string; clusterLabel: string }): Promise<string[]> {
  const reasons: string[] = [];
  const named = await repo.liveKeyMonths(db, 'cluster', body.clusterId);
  if (named.length) reasons.push(CREATION_MESSAGES.nameTaken('cluster id', named[0]!.key, named.map((n) => n.monthId)));
  const labelled = await repo.liveLabelInMonth(db, 'cluster', body.clusterLabel, body.monthId);
  if (labelled) reasons.push(CREATION_MESSAGES.labelTaken('cluster', body.clusterLabel, labelled, body.monthId));
  return reasons;
}

/** POST /api/cluster/checkIfExists/: like the module check, for a cluster id (any month) and label (the month). */
export async function checkClusterExists(ctx: ServiceContext, body: ClusterExistsRequest): Promise<{ description: string }> {
  const reasons = await clusterConflicts(ctx.db, body);
  if (reasons.length) throw conflict(joined(reasons), 'clusterAlreadyExists');
  return { description: CREATION_TEXTS.checkPassed };
}

export interface PreparedCluster {
  body: ClusterCreateParsed;
  month: MonthState;
  channel: string | null;
  children: repo.NewClusterChildren;
  /** The cluster's scope: its brand and the zones of its countries (those of its stores). */
  scope: { brand: string; zones: string[] };
}

/**
 * Checks one cluster against the database (month and release open, codes, stores, the create right on
 * the brand and the zones of its stores: 403); answers it ready to write, or the reasons it cannot be.
 * The create call and Import Cluster (uploads/cluster-import.job.ts) both.
 */
export async function checkNewCluster(db: Queryable, grants: readonly Grant[], body: ClusterCreateParsed): Promise<PreparedCluster | string[]> {
  const month = await assertMonthWritable(db, body.monthId);
  const reasons = await unknownCodes(db, [
    [unknownIn('brand'), 'brand', [body.brandCode]],
    [unknownIn('collection'), 'collection', [body.collection]],
    [unknownLiaCodes, 'LIAs', body.lias],
    [unknownIn('zone'), 'stars zones', body.starZones],
  ]);
  const classificationIds = [...new Set(body.classifications ?? [])];
  const missingClasses = await unknownClassificationIds(db, classificationIds);
  if (missingClasses.length) reasons.push(CREATION_MESSAGES.unknown('client classifications', missingClasses.map(String)));

  const found = await repo.storesBySap(db, body.stores.map((s) => s.codiceStoreSap));
  const zones = new Set(body.starZones);
  const storeJdas: string[] = [];
  const countries = new Set<string>();
  const storeZones = new Set<string>();
  for (const entry of body.stores) {
    const store = found.get(entry.codiceStoreSap);
    if (!store) {
      reasons.push(CREATION_MESSAGES.storeUnknown(entry.codiceStoreSap));
      continue;
    }
    if (entry.storeId && entry.storeId !== store.storeJda) reasons.push(CREATION_MESSAGES.storeMismatch(store.codiceStoreSap, store.storeJda));
    if (entry.starsCustomer !== store.starsCustomer) reasons.push(CREATION_MESSAGES.storeCustomer(store.codiceStoreSap, store.starsCustomer));
    if (!entry.customerSegmentation.includes(store.customerSegmentation)) reasons.push(CREATION_MESSAGES.storeSegment(store.codiceStoreSap, store.customerSegmentation));
    if (!zones.has(store.starsZone)) reasons.push(CREATION_MESSAGES.storeZone(store.codiceStoreSap, store.starsZone));
    if (!storeJdas.includes(store.storeJda)) storeJdas.push(store.storeJda);
    countries.add(store.countryCode);
    storeZones.add(store.starsZone);
  }
  if (reasons.length) return reasons;
  // The cluster's scope is its brand and the zones of its countries (those of its stores).
  if (!canCreate(grants, { brand: body.brandCode, zones: [...storeZones] })) throw forbidden(CREATION_TEXTS.noCreateRight);
  const channels = await repo.liaChannels(db, body.lias);
  return {
    body,
    month,
    channel: channels.get([...body.lias].sort()[0]!) ?? null,
    children: {
      countries: [...countries].sort(),
      zones: [...zones].sort(),
      storeJdas,
      lias: [...body.lias].sort(),
      classificationIds,
    },
    scope: { brand: body.brandCode, zones: [...storeZones].sort() },
  };
}

/**
 * Writes a checked cluster in `tx` (WIP, no modules): serialised per id, its id unique in every month and
 * its label in the month (409), re-creation after a deletion, audited `create`. The create call and
 * Import Cluster both.
 */
export async function insertNewCluster(tx: Queryable, caller: { username: string; requestId?: string | undefined }, p: PreparedCluster, auditExtra: Record<string, unknown> = {}) {
  await repo.lockKeyForCreation(tx, 'cluster', p.body.clusterId);
  const taken = await clusterConflicts(tx, p.body);
  if (taken.length) throw conflict(joined(taken), 'clusterAlreadyExists');
  const createdAfterDelete = await prepareRecreation(tx, 'cluster', p.body.clusterId, p.body.monthId);
  const row = await repo.insertCluster(
    tx,
    {
      clusterId: p.body.clusterId,
      monthId: p.body.monthId,
      clusterLabel: p.body.clusterLabel,
      clusterDescription: p.body.clusterDescription,
      brandCode: p.body.brandCode,
      collection: p.body.collection,
      planningChannelId: p.channel,
      releaseId: p.month.releaseId,
      status: 'WIP',
      createdAfterDelete,
      createdBy: caller.username,
      updatedBy: caller.username,
    },
    p.children,
  );
  await audit(tx, {
    username: caller.username,
    action: 'create',
    itemType: 'cluster',
    itemKey: row.clusterId,
    monthId: row.monthId,
    requestId: caller.requestId,
    summary: { clusterLabel: row.clusterLabel, brand: row.brandCode, collection: row.collection, ...p.children, createdAfterDelete, ...auditExtra },
  });
  return row;
}

/**
 * POST /api/cluster/massiveCreation/: creates the clusters (WIP, no modules yet), all or none, and
 * answers them. Home sends one; the browser then opens it in /cluster.
 */
export async function createClusters(ctx: ServiceContext, list: readonly ClusterCreateParsed[]): Promise<ClusterDto[]> {
  const seen = new Set<string>();
  const reasons: string[] = [];
  const prepared: PreparedCluster[] = [];
  for (const body of list) {
    const key = body.clusterId.toLowerCase();
    if (seen.has(key)) reasons.push(CREATION_MESSAGES.duplicateInRequest(body.clusterId));
    seen.add(key);
    const result = await checkNewCluster(ctx.db, ctx.user.grants, body);
    if (Array.isArray(result)) reasons.push(...(list.length > 1 ? result.map((r) => `${body.clusterId}: ${r}`) : result));
    else prepared.push(result);
  }
  if (reasons.length) throw badRequest(joined(reasons), undefined, 'invalidCluster');

  const rows = await ctx.db.transaction(async (tx) => {
    const saved = [];
    for (const p of prepared) saved.push(await insertNewCluster(tx, { username: ctx.user.username, requestId: ctx.requestId }, p));
    return saved;
  });
  return toClusterDtos(ctx.db, rows, { lockTtlMinutes: ctx.config.LOCK_TTL_MINUTES });
}

// ───────────────────────────── generic name and store lookup ─────────────────────────────

const token = (text: string, max: number) => text.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, max);

/**
 * POST /api/cluster/getGenericName: BRAND_COLL[_CHN]_PLACE_NN, at most 20 characters, letters, digits
 * and underscores only (a valid cluster id), numbered after the ids already used with that stem (any
 * month, any state). PLACE is the country, the stars zone of several countries of one zone, or MIX.
 */
export async function genericClusterName(
  ctx: ServiceContext,
  body: { releaseId?: string | null; planningChannel?: string | null; collection: string; brand: string; country?: string | string[] | null },
): Promise<{ clusterId: string }> {
  const countries = [...new Set((Array.isArray(body.country) ? body.country : body.country ? [body.country] : []).filter(Boolean))];
  const unknown = await unknownCodes(ctx.db, [
    [unknownIn('brand'), 'brand', [body.brand]],
    [unknownIn('collection'), 'collection', [body.collection]],
    [unknownIn('channel'), 'planning channel', body.planningChannel ? [body.planningChannel] : []],
  ]);
  if (body.releaseId && !(await repo.existingCodes(ctx.db, 'release', [body.releaseId])).has(body.releaseId)) {
    unknown.push(CREATION_MESSAGES.releaseUnknown(body.releaseId));
  }
  const zoneOf = await repo.countryZones(ctx.db, countries);
  const missing = countries.filter((c) => !zoneOf.has(c));
  if (missing.length) unknown.push(CREATION_MESSAGES.unknown('countries', missing));
  if (unknown.length) throw badRequest(joined(unknown), undefined, 'invalidGenericName');

  const zonesOfCountries = new Set(countries.map((c) => zoneOf.get(c)!));
  const place = countries.length === 0 ? 'ALL' : countries.length === 1 ? countries[0]! : zonesOfCountries.size === 1 ? [...zonesOfCountries][0]! : 'MIX';
  const parts = [token(body.brand, 5), token(body.collection, 3), ...(body.planningChannel ? [token(body.planningChannel, 3)] : []), token(place, 5)].filter(Boolean);
  let stem = parts.join('_');
  // Room for '_' and two or three digits within the 20 characters of a cluster id.
  stem = stem.slice(0, 16).replace(/_+$/, '');
  const prefix = `${stem}_`;
  const used = await repo.clusterIdsWithPrefix(ctx.db, prefix);
  const numbers = used.map((id) => id.slice(prefix.length)).filter((rest) => /^\d+$/.test(rest)).map(Number);
  const next = (numbers.length ? Math.max(...numbers) : 0) + 1;
  const suffix = String(next).padStart(2, '0');
  return { clusterId: `${stem.slice(0, 20 - 1 - suffix.length)}_${suffix}` };
}

/** GET /api/store/bySap/:codiceStoreSap */
export async function storeBySap(ctx: ServiceContext, codiceStoreSap: string): Promise<repo.StoreInfo> {
  const store = (await repo.storesBySap(ctx.db, [codiceStoreSap])).get(codiceStoreSap);
  if (!store) throw notFound(CREATION_MESSAGES.storeUnknown(codiceStoreSap), 'storeNotFound');
  return store;
}
