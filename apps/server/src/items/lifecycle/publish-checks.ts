/**
 * The planning system's own checks, written once (docs/LIFECYCLE.md "Publish"): pure functions over
 * loaded data. They run before anything is sent (`checkForPublish` of both kinds, and the publish calls,
 * which refuse with 422 `publishBlocked`) and again in the outbox gateway, which stands for the planning
 * system: the rules cannot drift apart.
 */
import type { PublishBlockReason } from '@bo/shared/modules';

/** SAP statuses of a SKU that the planning system refuses (disabled in SAP). */
export const SAP_DISABLED_STATUSES: readonly string[] = ['Z', 'I'];

export const isSapDisabled = (sapStatus: string | null | undefined) => !!sapStatus && SAP_DISABLED_STATUSES.includes(sapStatus);

/** What a module's checks read: its active (not REMOVED) SKUs with their SAP status. */
export interface ModulePublishFacts {
  skus: readonly { upc: string; sapStatus: string | null }[];
}

/** What a cluster's checks read: how many stores it has and its ADDED modules that exist in its month. */
export interface ClusterPublishFacts {
  storeCount: number;
  /** `status` is the module's own status; absent when not known (the gateway's payload has none). */
  modules: readonly { moduleName: string; status?: string }[];
}

/** A module without an active SKU, or with a SKU disabled in SAP (status Z or I), is refused. */
export function moduleBlockReasons(facts: ModulePublishFacts): PublishBlockReason[] {
  const reasons: PublishBlockReason[] = [];
  if (facts.skus.length === 0) reasons.push({ code: 'noActiveSku', message: 'The module has no active SKU' });
  for (const s of facts.skus) {
    if (isSapDisabled(s.sapStatus)) reasons.push({ code: 'skuSapDisabled', message: `SKU ${s.upc} is disabled in SAP`, upc: s.upc });
  }
  return reasons;
}

/** The planning system's checks of a cluster: it needs stores and modules. */
export function clusterPlanningReasons(facts: ClusterPublishFacts): PublishBlockReason[] {
  const reasons: PublishBlockReason[] = [];
  if (facts.storeCount === 0) reasons.push({ code: 'noStore', message: 'The cluster has no store' });
  if (facts.modules.length === 0) reasons.push({ code: 'noModule', message: 'The cluster has no module' });
  return reasons;
}

/** Every reason a cluster cannot be published now: its modules in WIP (part 2 §5), then the planning system's checks. */
export function clusterBlockReasons(facts: ClusterPublishFacts): PublishBlockReason[] {
  const wip: PublishBlockReason[] = facts.modules
    .filter((m) => m.status === 'WIP')
    .map((m) => ({ code: 'moduleInWip', message: `The module ${m.moduleName} is in work in progress`, moduleName: m.moduleName }));
  return [...wip, ...clusterPlanningReasons(facts)];
}

/** The 422 `publishBlocked` text: the item and each of its reasons. */
export function publishBlockedMessage(kind: 'module' | 'cluster', name: string, reasons: readonly PublishBlockReason[]): string {
  return `The ${kind} ${name} cannot be published: ${reasons.map((r) => r.message).join('; ')}`;
}
