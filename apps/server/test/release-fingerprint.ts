/**
 * Counts and checksums of a release's world (master data, live items and their compositions), to compare
 * two installations after a round trip of the release files. `query` runs one SQL text and answers its rows.
 */
export type Query = (sqlText: string) => Promise<Record<string, unknown>[]>;

export async function releaseFingerprint(query: Query, releaseId: string): Promise<Record<string, string>> {
  const one = async (text: string) => String((await query(text))[0]!.v);
  const liveModules = `modules m JOIN months mo ON mo.month_id = m.month_id AND mo.release_id = '${releaseId}' WHERE m.deletion_status IS NULL`;
  const liveClusters = `clusters c JOIN months mo ON mo.month_id = c.month_id AND mo.release_id = '${releaseId}' WHERE c.deletion_status IS NULL`;
  return {
    skus: await one('SELECT count(*)::text AS v FROM skus'),
    stores: await one('SELECT count(*)::text AS v FROM stores'),
    customers: await one('SELECT count(*)::text AS v FROM stars_customers'),
    modules: await one(`SELECT count(*)::text AS v FROM ${liveModules}`),
    clusters: await one(`SELECT count(*)::text AS v FROM ${liveClusters}`),
    moduleLines: await one(`SELECT md5(string_agg(concat_ws('/', m.module_name, m.month_id, m.module_label, m.macro_family, s.upc, s.must_have, s.status, s.min_value, s.position), '|' ORDER BY m.module_name, m.month_id, s.upc)) AS v
      FROM ${liveModules.replace('WHERE', 'JOIN module_skus s ON s.module_id = m.id WHERE')}`),
    moduleZones: await one(`SELECT md5(string_agg(concat_ws('/', m.module_name, m.month_id, z.stars_zone), '|' ORDER BY m.module_name, m.month_id, z.stars_zone)) AS v
      FROM ${liveModules.replace('WHERE', 'JOIN module_stars_zones z ON z.module_id = m.id WHERE')}`),
    clusterStores: await one(`SELECT md5(string_agg(concat_ws('/', c.cluster_id, c.month_id, x.store_jda), '|' ORDER BY c.cluster_id, c.month_id, x.store_jda)) AS v
      FROM ${liveClusters.replace('WHERE', 'JOIN cluster_stores x ON x.cluster_pk = c.id WHERE')}`),
    clusterModules: await one(`SELECT md5(string_agg(concat_ws('/', c.cluster_id, c.month_id, x.module_name, x.status), '|' ORDER BY c.cluster_id, c.month_id, x.module_name)) AS v
      FROM ${liveClusters.replace('WHERE', `JOIN cluster_modules x ON x.cluster_pk = c.id WHERE EXISTS (SELECT 1 FROM modules l WHERE l.module_name = x.module_name AND l.month_id = c.month_id AND l.deletion_status IS NULL) AND`)}`),
    clusterOthers: await one(`SELECT md5(string_agg(v, '|' ORDER BY v)) AS v FROM (
        SELECT concat_ws('/', c.cluster_id, c.month_id, 'C', x.country_code) AS v FROM ${liveClusters.replace('WHERE', 'JOIN cluster_countries x ON x.cluster_pk = c.id WHERE')}
        UNION ALL SELECT concat_ws('/', c.cluster_id, c.month_id, 'Z', x.stars_zone) FROM ${liveClusters.replace('WHERE', 'JOIN cluster_stars_zones x ON x.cluster_pk = c.id WHERE')}
        UNION ALL SELECT concat_ws('/', c.cluster_id, c.month_id, 'L', x.lia_code) FROM ${liveClusters.replace('WHERE', 'JOIN cluster_lias x ON x.cluster_pk = c.id WHERE')}) t`),
  };
}
