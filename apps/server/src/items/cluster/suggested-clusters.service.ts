import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import { itemKeyString, moduleKeyString } from '@bo/shared/item-keys';
import { canEdit, canView, sameUser, type ItemScope } from '@bo/shared/permissions';
import {
  SUGGESTION_FILTER_KEYS,
  SUGGESTION_TEXTS,
  type DecisionAnswer,
  type SuggestedCluster,
  type SuggestionFilterKey,
  type SuggestListAnswer,
} from '@bo/shared/suggested-clusters';
import { LIMITS } from '@bo/shared/validation';
import type { Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { forbidden, notFound, ruleBroken } from '../../lib/errors.js';
import {
  clusterChildren,
  findClusterAnyState,
  replaceClusterCountries,
  replaceClusterModules,
  replaceClusterStores,
  replaceClusterZones,
} from './clusters.repository.js';
import { liveLocks } from '../../lib/locks.repository.js';
import * as repo from './suggested-clusters.repository.js';
import { monthStates } from '../lifecycle/months.repository.js';

type StoreRow = Awaited<ReturnType<typeof repo.suggestionStores>>[number];
type ModuleRow = Awaited<ReturnType<typeof repo.suggestionModules>>[number];

const unique = (values: readonly string[]) => [...new Set(values)].sort();

/** The scope a decision is checked on: the suggestion's brand and the zones of its country and stores. */
function scopeOf(s: repo.SuggestionRow, storeRows: readonly StoreRow[], zoneOfCountry: ReadonlyMap<string, string>): ItemScope {
  const zones = unique([...storeRows.map((st) => st.starsZone), ...(zoneOfCountry.has(s.country) ? [zoneOfCountry.get(s.country)!] : [])]);
  // A suggestion without a brand matches no grant: only an admin may see and decide it.
  return { brand: s.brandCode ?? '', zones };
}

const ddmmyyyy = (isoDate: string) => isoDate.split('-').reverse().join('/');

/** POST /api/cluster/suggestList: the suggestions the caller may view (of the given countries, or all), with the filter options. */
export async function suggestList(ctx: ServiceContext, countryCodes: readonly string[]): Promise<SuggestListAnswer> {
  const rows = await repo.listSuggestions(ctx.db, countryCodes);
  const ids = rows.map((r) => r.assortmentId);
  const [storeRows, moduleRows, zoneOfCountry] = [
    await repo.suggestionStores(ctx.db, ids),
    await repo.suggestionModules(ctx.db, ids),
    await repo.zoneOfCountries(
      ctx.db,
      rows.map((r) => r.country),
    ),
  ];
  const info = await repo.moduleInfo(
    ctx.db,
    rows.flatMap((r) => (r.monthId ? [r.monthId] : [])),
    moduleRows.map((m) => m.moduleName),
  );
  const group = <T extends { assortmentId: string }>(list: readonly T[]) => {
    const m = new Map<string, T[]>();
    for (const x of list) m.set(x.assortmentId, [...(m.get(x.assortmentId) ?? []), x]);
    return m;
  };
  const storesBy = group(storeRows);
  const modulesBy = group(moduleRows);

  const out: SuggestedCluster[] = [];
  for (const r of rows) {
    const st = storesBy.get(r.assortmentId) ?? [];
    const scope = scopeOf(r, st, zoneOfCountry);
    if (!canView(ctx.user.grants, scope)) continue;
    out.push({
      assortmentId: r.assortmentId,
      originalAssortment: r.originalAssortment,
      releaseId: r.releaseId,
      monthId: r.monthId,
      brandCode: r.brandCode,
      collection: r.collection,
      country: r.country,
      userSuggest: r.userSuggest,
      dateSuggest: r.dateSuggest,
      period: r.period,
      starsCustomer: unique(st.map((s) => s.starsCustomer)),
      customerSegmentation: unique(st.map((s) => s.customerSegmentation)),
      storeJda: unique(st.map((s) => s.storeJda)),
      status: r.status as SuggestedCluster['status'],
      message: r.message,
      decidedBy: r.decidedBy,
      decidedAt: r.decidedAt ? r.decidedAt.toISOString() : null,
      stores: st.map((s) => ({ starsCustomer: s.starsCustomer, storeJda: s.storeJda, customerSegmentation: s.customerSegmentation })),
      modules: (modulesBy.get(r.assortmentId) ?? []).map((m) => {
        const found = r.monthId ? info.get(moduleKeyString({ moduleName: m.moduleName, monthId: r.monthId })) : undefined;
        return {
          foType: m.foType,
          moduleName: m.moduleName,
          moduleNameSwitch: m.moduleNameSwitch,
          added: m.added,
          moduleLabel: found?.moduleLabel ?? null,
          macroFamily: found?.macroFamily ?? null,
        };
      }),
      canDecide: r.status === 'PENDING' && canEdit(ctx.user.grants, scope),
    });
  }

  const values = (key: SuggestionFilterKey, row: SuggestedCluster): string[] => {
    const v = row[key];
    return Array.isArray(v) ? v : [v];
  };
  const filters = Object.fromEntries(
    SUGGESTION_FILTER_KEYS.map((key) => [
      key,
      unique(out.flatMap((row) => values(key, row))).map((value) => ({ value, label: key === 'dateSuggest' ? ddmmyyyy(value) : value })),
    ]),
  ) as SuggestListAnswer['filters'];
  return { rows: out, filters };
}

interface Loaded {
  suggestion: repo.SuggestionRow;
  stores: StoreRow[];
  modules: ModuleRow[];
  scope: ItemScope;
}

/** The suggestion, locked for the transaction: 404 unknown, 422 when no longer PENDING. */
async function loadPending(tx: Tx, assortmentId: string): Promise<Loaded> {
  const suggestion = await repo.findSuggestion(tx, assortmentId, true);
  if (!suggestion) throw notFound(`The suggested cluster ${assortmentId} does not exist`);
  const stores = await repo.suggestionStores(tx, [assortmentId]);
  const modules = await repo.suggestionModules(tx, [assortmentId]);
  const scope = scopeOf(suggestion, stores, await repo.zoneOfCountries(tx, [suggestion.country]));
  return { suggestion, stores, modules, scope };
}

function requireDecidable(ctx: ServiceContext, loaded: Loaded, extraZones: readonly string[] = []): void {
  if (!canView(ctx.user.grants, loaded.scope)) throw notFound(`The suggested cluster ${loaded.suggestion.assortmentId} does not exist`);
  const scope = { brand: loaded.scope.brand, zones: unique([...(loaded.scope.zones ?? []), ...extraZones]) };
  if (!canEdit(ctx.user.grants, scope)) throw forbidden(SUGGESTION_TEXTS.notAllowed);
  if (loaded.suggestion.status !== 'PENDING') throw ruleBroken('notPending', SUGGESTION_TEXTS.notPending);
}

/** The month an approval lands in: the suggestion's own when open, else the first open month of its release. */
async function targetMonth(tx: Tx, s: repo.SuggestionRow): Promise<string> {
  if (s.monthId) {
    const state = (await monthStates(tx, [s.monthId])).get(s.monthId)!;
    if (state.exists && state.open && !state.releaseClosed) return s.monthId;
  }
  const releaseId = s.releaseId ?? (s.monthId ? (await monthStates(tx, [s.monthId])).get(s.monthId)!.releaseId : null);
  if (releaseId) {
    const open = await repo.openMonthsOfRelease(tx, releaseId);
    const state = open[0] ? (await monthStates(tx, [open[0].monthId])).get(open[0].monthId)! : null;
    if (open[0] && !state?.releaseClosed) return open[0].monthId;
  }
  throw ruleBroken('monthClosed', SUGGESTION_TEXTS.noMonth);
}

/**
 * The module names an approval puts in the cluster: the ADDED suggestion rows; a SWITCH row brings its
 * `moduleNameSwitch` when set (the module the front office proposes to switch to), else its own module.
 */
export function approvedModuleNames(rows: readonly { foType: string; moduleName: string; moduleNameSwitch: string | null; added: boolean }[]): string[] {
  return [...new Set(rows.filter((m) => m.added).map((m) => (m.foType === 'SWITCH' && m.moduleNameSwitch ? m.moduleNameSwitch : m.moduleName)))];
}

/**
 * POST /api/cluster/accept: creates or updates the cluster `originalAssortment` in the target month from
 * the suggestion — its stores (and so its countries and zones) and its ADDED modules (existing ADDED
 * modules the suggestion leaves out go to the bin) — records who approved it and marks it APPROVED.
 */
export async function accept(ctx: ServiceContext, assortmentId: string): Promise<DecisionAnswer> {
  return ctx.db.transaction(async (tx) => {
    const loaded = await loadPending(tx, assortmentId);
    const s = loaded.suggestion;
    requireDecidable(ctx, loaded);
    if (!s.brandCode || !s.collection) throw ruleBroken('noBrand', SUGGESTION_TEXTS.noBrand);
    const monthId = await targetMonth(tx, s);
    const clusterId = s.originalAssortment.slice(0, LIMITS.clusterId);
    const existing = await findClusterAnyState(tx, { clusterId, monthId }, true);
    if (existing?.deletionStatus) throw ruleBroken('beingDeleted', CLUSTER_TEXTS.copyBeingDeleted);
    if (existing && (existing.brandCode !== s.brandCode || existing.collection !== s.collection)) throw ruleBroken('otherBrand', SUGGESTION_TEXTS.otherBrand(clusterId));
    if (existing) {
      // Updating a cluster also needs the right on the zones it covers now.
      const before = await clusterChildren(tx, existing.id);
      requireDecidable(ctx, loaded, before.zones);
      if (existing.status === 'SUBMIT_IN_PROGRESS') throw ruleBroken('submitInProgress', SUGGESTION_TEXTS.submitInProgress);
      const holder = (await liveLocks(tx, 'cluster', [{ itemKey: clusterId, monthId }], ctx.config.LOCK_TTL_MINUTES)).get(itemKeyString({ itemKey: clusterId, monthId }));
      if (holder && !sameUser(holder, ctx.user.username)) throw ruleBroken('clusterLocked', SUGGESTION_TEXTS.locked(holder));
    }

    const wanted = approvedModuleNames(loaded.modules);
    const info = await repo.moduleInfo(tx, [monthId], wanted);
    const accepted = wanted.filter((n) => info.get(moduleKeyString({ moduleName: n, monthId }))?.brandCode === s.brandCode);
    const skippedModules = wanted.filter((n) => !accepted.includes(n));
    const storeJdas = unique(loaded.stores.map((st) => st.storeJda));
    const countryCodes = unique(loaded.stores.length ? loaded.stores.map((st) => st.countryCode) : [s.country]);
    const zoneMap = await repo.zoneOfCountries(tx, countryCodes);
    const zones = unique(countryCodes.map((c) => zoneMap.get(c)!).filter(Boolean));
    const month = (await monthStates(tx, [monthId])).get(monthId)!;
    const now = new Date();

    let pk: number;
    let composition: { moduleName: string; status: string }[];
    if (existing) {
      pk = existing.id;
      const current = await repo.clusterModuleRows(tx, pk);
      composition = [
        ...accepted.map((moduleName) => ({ moduleName, status: 'ADDED' })),
        ...current.filter((m) => !accepted.includes(m.moduleName)).map((m) => ({ moduleName: m.moduleName, status: 'REMOVED' })),
      ];
      await repo.markClusterApproved(tx, pk, {
        status: existing.status === 'SUBMITTED' ? 'WIP' : existing.status,
        approvedFrom: s.assortmentId,
        by: ctx.user.username,
        at: now,
      });
    } else {
      const template = await repo.anyClusterWithId(tx, clusterId);
      pk = await repo.insertApprovedCluster(tx, {
        clusterId,
        monthId,
        clusterLabel: template?.clusterLabel ?? s.originalAssortment.slice(0, LIMITS.clusterLabel),
        clusterDescription: template?.clusterDescription ?? `Approved from the suggestion ${s.assortmentId}`.slice(0, LIMITS.description),
        brandCode: s.brandCode,
        collection: s.collection,
        planningChannelId: template?.planningChannelId ?? loaded.stores[0]?.planningChannelId ?? null,
        releaseId: month.releaseId,
        status: 'WIP',
        rangeFacing: template?.rangeFacing ?? null,
        approvedFrom: s.assortmentId,
        approvedBy: ctx.user.username,
        createdBy: ctx.user.username,
        updatedBy: ctx.user.username,
      });
      composition = accepted.map((moduleName) => ({ moduleName, status: 'ADDED' }));
    }
    await replaceClusterModules(tx, pk, composition);
    await replaceClusterStores(tx, pk, storeJdas);
    await replaceClusterCountries(tx, pk, countryCodes);
    await replaceClusterZones(tx, pk, zones);
    await repo.decideSuggestion(tx, s.assortmentId, { status: 'APPROVED', message: null, by: ctx.user.username, at: now });
    await audit(tx, {
      username: ctx.user.username,
      action: 'approve-suggestion',
      itemType: 'cluster',
      itemKey: clusterId,
      monthId,
      summary: { assortmentId: s.assortmentId, created: !existing, modules: accepted, skippedModules, stores: storeJdas.length },
      requestId: ctx.requestId,
    });
    return { status: 'APPROVED', message: SUGGESTION_TEXTS.approved, clusterId, monthId, skippedModules };
  });
}

/** POST /api/cluster/reject: marks a PENDING suggestion REJECTED with the optional reason. */
export async function reject(ctx: ServiceContext, assortmentId: string, reason: string | null | undefined): Promise<DecisionAnswer> {
  return ctx.db.transaction(async (tx) => {
    const loaded = await loadPending(tx, assortmentId);
    requireDecidable(ctx, loaded);
    const message = reason?.trim() || null;
    await repo.decideSuggestion(tx, assortmentId, { status: 'REJECTED', message, by: ctx.user.username, at: new Date() });
    await audit(tx, {
      username: ctx.user.username,
      action: 'reject-suggestion',
      itemType: 'suggestedCluster',
      itemKey: assortmentId,
      summary: { message },
      requestId: ctx.requestId,
    });
    return { status: 'REJECTED', message: SUGGESTION_TEXTS.rejected, clusterId: null, monthId: null, skippedModules: [] };
  });
}
