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
import { canCreateAny } from '@bo/shared/permissions';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { toClusterDtos } from '../../items/cluster/cluster.presenter.js';
import { toModuleDtos } from '../../items/module/module.presenter.js';
import { existingCodes, lockKeyForCreation } from '../../items/lifecycle/creation.repository.js';
import { CREATION_MESSAGES, joined, unknownCodes, unknownIn } from '../../items/lifecycle/creation-rules.js';
import { checkNewModule, insertNewModule, moduleConflicts, type ModuleCreateParsed } from '../../items/module/module-creation.js';
import { checkNewCluster, clusterConflicts, insertNewCluster, type PreparedCluster } from '../../items/cluster/cluster-creation.js';
import { storesBySap, type StoreInfo } from '../../items/cluster/cluster-creation.repository.js';
import * as repo from './creation.repository.js';

// ───────────────────────────── macro families ─────────────────────────────

/** GET /api/module/macroFamily/all: best sellers and newness first, then alphabetical. */
export async function listMacroFamilies(ctx: ServiceContext): Promise<MacroFamily[]> {
  return (await repo.listFamilies(ctx.db)).sort(compareFamilies);
}

/** POST /api/module/macroFamily/create: a new (ordinary) family; names compare case-insensitively. */
export async function createMacroFamily(ctx: ServiceContext, name: string): Promise<MacroFamily> {
  if (!canCreateAny(ctx.user.grants)) throw forbidden(CREATION_MESSAGES.noFamilyRight);
  const row = await ctx.db.transaction(async (tx) => {
    await lockKeyForCreation(tx, 'macroFamily', name);
    const existing = await repo.familyByName(tx, name);
    if (existing) throw conflict(CREATION_MESSAGES.familyExists(existing.macroFamily), 'macroFamilyAlreadyExists');
    const saved = await repo.insertFamily(tx, name);
    await audit(tx, { username: ctx.user.username, action: 'create', itemType: 'macroFamily', itemKey: name, requestId: ctx.requestId });
    return saved;
  });
  return { macroFamily: row.macroFamily, specialKind: row.specialKind };
}

// ───────────────────────────── modules ─────────────────────────────

/**
 * POST /api/module/checkIfExists/: `{ description: 'OK' }` when a module with this name (in any month)
 * and this label (in the month) does not exist yet; else 409 `moduleAlreadyExists` with the reasons.
 */
export async function checkModuleExists(ctx: ServiceContext, body: ModuleExistsRequest): Promise<{ description: string }> {
  const reasons = await moduleConflicts(ctx.db, body);
  if (reasons.length) throw conflict(joined(reasons), 'moduleAlreadyExists');
  return { description: CREATION_TEXTS.checkPassed };
}

/** POST /api/module/create: a new WIP module without SKUs, in an open month. */
export async function createModule(ctx: ServiceContext, body: ModuleCreateParsed): Promise<ModuleDto> {
  await checkNewModule(ctx.db, ctx.user.grants, body);
  const row = await ctx.db.transaction((tx) => insertNewModule(tx, { username: ctx.user.username, requestId: ctx.requestId }, body));
  const [dto] = await toModuleDtos(ctx.db, [row], { lockTtlMinutes: ctx.config.LOCK_TTL_MINUTES });
  return dto!;
}

// ───────────────────────────── clusters ─────────────────────────────

/** POST /api/cluster/checkIfExists/: like the module check, for a cluster id (any month) and label (the month). */
export async function checkClusterExists(ctx: ServiceContext, body: ClusterExistsRequest): Promise<{ description: string }> {
  const reasons = await clusterConflicts(ctx.db, body);
  if (reasons.length) throw conflict(joined(reasons), 'clusterAlreadyExists');
  return { description: CREATION_TEXTS.checkPassed };
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
  if (body.releaseId && !(await existingCodes(ctx.db, 'release', [body.releaseId])).has(body.releaseId)) {
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
export async function storeBySap(ctx: ServiceContext, codiceStoreSap: string): Promise<StoreInfo> {
  const store = (await storesBySap(ctx.db, [codiceStoreSap])).get(codiceStoreSap);
  if (!store) throw notFound(CREATION_MESSAGES.storeUnknown(codiceStoreSap), 'storeNotFound');
  return store;
}
