/** SQL of creating a cluster: its row and its children, and the stores its SAP codes name. */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../db/client.js';
import { clusterClassifications, clusterCountries, clusterLias, clusters, clusterStarsZones, clusterStores } from '../../db/schema.js';

export interface NewClusterChildren {
  countries: string[];
  zones: string[];
  storeJdas: string[];
  lias: string[];
  classificationIds: number[];
}

export async function insertCluster(tx: Queryable, row: typeof clusters.$inferInsert, children: NewClusterChildren) {
  const [saved] = await tx.insert(clusters).values(row).returning();
  const pk = saved!.id;
  if (children.countries.length) await tx.insert(clusterCountries).values(children.countries.map((countryCode) => ({ clusterPk: pk, countryCode })));
  if (children.zones.length) await tx.insert(clusterStarsZones).values(children.zones.map((starsZone) => ({ clusterPk: pk, starsZone })));
  if (children.storeJdas.length) await tx.insert(clusterStores).values(children.storeJdas.map((storeJda) => ({ clusterPk: pk, storeJda })));
  if (children.lias.length) await tx.insert(clusterLias).values(children.lias.map((liaCode) => ({ clusterPk: pk, liaCode })));
  if (children.classificationIds.length) {
    await tx.insert(clusterClassifications).values(children.classificationIds.map((classificationId) => ({ clusterPk: pk, classificationId })));
  }
  return saved!;
}

export interface StoreInfo {
  storeJda: string;
  codiceStoreSap: string;
  name: string;
  starsCustomer: string;
  starsCustomerName: string;
  customerSegmentation: string;
  countryCode: string;
  starsZone: string;
  planningChannelId: string;
}

/** Stores by SAP code (exact), with their customer's name and their country's stars zone. */
export async function storesBySap(db: Queryable, codes: readonly string[]): Promise<Map<string, StoreInfo>> {
  const wanted = [...new Set(codes)];
  if (wanted.length === 0) return new Map();
  const rows = await queryRows<StoreInfo>(
    db,
    sql`SELECT s.store_jda AS "storeJda", s.codice_store_sap AS "codiceStoreSap", s.name, s.stars_customer AS "starsCustomer",
               sc.name AS "starsCustomerName", s.customer_segmentation AS "customerSegmentation", s.country_code AS "countryCode",
               co.stars_zone AS "starsZone", s.planning_channel_id AS "planningChannelId"
        FROM stores s
        JOIN stars_customers sc ON sc.customer_code = s.stars_customer
        JOIN countries co ON co.country_code = s.country_code
        WHERE s.codice_store_sap IN ${wanted}`,
  );
  return new Map(rows.map((r) => [r.codiceStoreSap, r]));
}
