/**
 * Creating a cluster (part 2 §2 "Cluster creation"): the checks that need the database and the insert,
 * shared by the create call (areas/creation) and Import Cluster (areas/uploads, docs/IMPORTS.md).
 */
import { CREATION_TEXTS, type ClusterCreateParsed } from '@bo/shared/creation';
import type { Grant } from '@bo/shared/grants';
import { canCreate } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import { audit } from '../../lib/audit.repository.js';
import { conflict, forbidden } from '../../lib/errors.js';
import { liaChannels, lockKeyForCreation, liveKeyMonths, liveLabelInMonth } from '../lifecycle/creation.repository.js';
import { assertMonthWritable, CREATION_MESSAGES, joined, unknownCodes, unknownIn } from '../lifecycle/creation-rules.js';
import type { MonthState } from '../lifecycle/months.repository.js';
import { prepareRecreation } from '../lifecycle/recreation.repository.js';
import { unknownClassificationIds, unknownLiaCodes } from '../lifecycle/reference-data.repository.js';
import { insertCluster, storesBySap, type NewClusterChildren } from './cluster-creation.repository.js';

export async function clusterConflicts(db: Queryable, body: { clusterId: string; monthId: string; clusterLabel: string }): Promise<string[]> {
  const reasons: string[] = [];
  const named = await liveKeyMonths(db, 'cluster', body.clusterId);
  if (named.length) reasons.push(CREATION_MESSAGES.nameTaken('cluster id', named[0]!.key, named.map((n) => n.monthId)));
  const labelled = await liveLabelInMonth(db, 'cluster', body.clusterLabel, body.monthId);
  if (labelled) reasons.push(CREATION_MESSAGES.labelTaken('cluster', body.clusterLabel, labelled, body.monthId));
  return reasons;
}

export interface PreparedCluster {
  body: ClusterCreateParsed;
  month: MonthState;
  channel: string | null;
  children: NewClusterChildren;
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

  const found = await storesBySap(db, body.stores.map((s) => s.codiceStoreSap));
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
  const channels = await liaChannels(db, body.lias);
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
  await lockKeyForCreation(tx, 'cluster', p.body.clusterId);
  const taken = await clusterConflicts(tx, p.body);
  if (taken.length) throw conflict(joined(taken), 'clusterAlreadyExists');
  const createdAfterDelete = await prepareRecreation(tx, 'cluster', p.body.clusterId, p.body.monthId);
  const row = await insertCluster(
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
