import type { Db } from '../src/db/client.js';
import {
  brands,
  collections,
  countries,
  customerSegmentations,
  legoMonths,
  lias,
  macroFamilies,
  modules,
  moduleSkus,
  moduleStarsZones,
  months,
  planningChannels,
  releases,
  rules,
  skuMonthStats,
  skus,
  starsCustomers,
  starsZones,
  stores,
  templates,
  userGrants,
  users,
} from '../src/db/schema.js';
import { hashPassword } from '../src/auth/password.js';
import { insertCluster } from '../src/items/cluster/cluster-creation.repository.js';
import { replaceClusterModules } from '../src/items/cluster/clusters.repository.js';
import type { PermissionType, ROLES, RuleCode } from '@bo/shared/grants';

/** A small reference world: 2 brands, 2 zones, 3 countries, both collections, 4 months (one closed). */
export async function buildReference(db: Db) {
  await db.insert(releases).values([{ releaseId: 'R2027', status: 'OPEN' }]);
  await db.insert(brands).values([
    { brandCode: 'AUR', description: 'Aurora Optics' },
    { brandCode: 'VLT', description: 'Velto' },
  ]);
  await db.insert(collections).values([
    { collectionCode: 'SUN', description: 'Sun' },
    { collectionCode: 'OPTICAL', description: 'Optical' },
  ]);
  await db.insert(planningChannels).values([{ planningChannelId: 'RETAIL', label: 'Retail' }]);
  await db.insert(starsZones).values([
    { zoneCode: 'EU', description: 'Europe' },
    { zoneCode: 'NA', description: 'North America' },
  ]);
  await db.insert(countries).values([
    { countryCode: 'IT', name: 'Italy', starsZone: 'EU' },
    { countryCode: 'FR', name: 'France', starsZone: 'EU' },
    { countryCode: 'US', name: 'United States', starsZone: 'NA' },
  ]);
  await db.insert(customerSegmentations).values([{ segmentationCode: 'GOLD', label: 'Gold' }]);
  await db.insert(lias).values([{ liaCode: 'LIA01', planningChannelId: 'RETAIL' }]);
  await db.insert(rules).values([
    { ruleCode: 'create', description: 'Create modules and clusters', permissionType: 'edit' },
    { ruleCode: 'delete', description: 'Delete modules and clusters', permissionType: 'edit' },
  ]);
  await db.insert(templates).values([
    { templateLabel: 'Standard', templatesType: 'modulo', columns: ['upc'] },
    { templateLabel: 'Cluster standard', templatesType: 'cluster', columns: ['clusterId'] },
  ]);
  await db.insert(months).values([
    { monthId: 'M12_2026', year: 2026, month: 12, open: false, releaseId: 'R2027' },
    { monthId: 'M02_2027', year: 2027, month: 2, open: true, releaseId: 'R2027' },
    { monthId: 'M01_2027', year: 2027, month: 1, open: true, releaseId: 'R2027' },
    { monthId: 'M10_2027', year: 2027, month: 10, open: true, releaseId: 'R2027' },
  ]);
  await db.insert(legoMonths).values([{ monthId: 'M01_2027', brandCode: 'AUR', collection: 'SUN' }]);
}

/** What a user holds at one permission level. */
export interface GrantLevel {
  brands?: readonly string[];
  zones?: readonly string[];
  rules?: readonly RuleCode[];
}
/** Brand AUR in the EU zone: the scope most test users work in. */
export const AUR_EU = { brands: ['AUR'], zones: ['EU'] } as const satisfies GrantLevel;

export interface UserSpec {
  username: string;
  password?: string;
  email?: string;
  /** EDITOR unless given; null = no role yet. */
  role?: (typeof ROLES)[number] | null;
  status?: 'Enabled' | 'Disabled' | 'New';
  grants?: Partial<Record<PermissionType, GrantLevel>>;
}

let cachedHash: { password: string; hash: string } | null = null;

/** Creates a user with grant rows per level. Password defaults to 'secret'. */
export async function buildUser(db: Db, spec: UserSpec) {
  const password = spec.password ?? 'secret';
  if (cachedHash?.password !== password) cachedHash = { password, hash: await hashPassword(password) };
  const [user] = await db
    .insert(users)
    .values({
      username: spec.username,
      email: spec.email ?? `${spec.username}@example.com`,
      firstName: spec.username,
      lastName: 'Tester',
      passwordHash: cachedHash.hash,
      role: spec.role === undefined ? 'EDITOR' : spec.role,
      status: spec.status ?? 'Enabled',
    })
    .returning();
  if (!user) throw new Error('user not created');
  const rows: (typeof userGrants.$inferInsert)[] = [];
  for (const [level, g] of Object.entries(spec.grants ?? {})) {
    for (const b of g.brands ?? []) rows.push({ userId: user.userId, grantType: 'brand', grantCode: b, permissionType: level });
    for (const z of g.zones ?? []) rows.push({ userId: user.userId, grantType: 'starszone', grantCode: z, permissionType: level });
    for (const r of g.rules ?? []) rows.push({ userId: user.userId, grantType: 'rule', grantCode: r, permissionType: level });
  }
  if (rows.length) await db.insert(userGrants).values(rows);
  return user;
}

// ───────────── items ─────────────

let skuSeq = 0;
/** A SKU of AUR/SUN unless told otherwise; upc defaults to a fresh 12-digit code. */
export async function buildSku(db: Db, over: Partial<typeof skus.$inferInsert> = {}) {
  skuSeq++;
  const upc = over.upc ?? String(800000000000 + skuSeq * 7 + Math.floor(Math.random() * 5));
  const [row] = await db
    .insert(skus)
    .values({
      upc,
      skuId: over.skuId ?? 100000 + skuSeq + Math.floor(Math.random() * 1_000_000) * 1000,
      model: 'AU1000',
      color: '001',
      colorDescription: 'Black',
      size: '52',
      materialCode: 'AU1000',
      skuCode: `AU1000-001-${skuSeq}`,
      brandCode: 'AUR',
      collection: 'SUN',
      srp: 150,
      whsprice: 70,
      releaseDate: '2024-03-01',
      insertDate: '2024-01-15',
      gender: 'UNISEX',
      frameMaterial: 'ACETATE',
      marketingTheme: 'CORE',
      ...over,
    })
    .returning();
  return row!;
}

export async function buildFamily(db: Db, macroFamily = 'PILOT', specialKind: string | null = null) {
  await db.insert(macroFamilies).values({ macroFamily, specialKind }).onConflictDoNothing();
  return macroFamily;
}

export interface ModuleSpec {
  moduleName: string;
  monthId?: string;
  brandCode?: string;
  collection?: string;
  macroFamily?: string;
  status?: string;
  zones?: string[];
  /** SKUs (upc) with their class and status. */
  skus?: { upc: string; mustHave?: boolean; status?: 'ADDED' | 'NEW' | 'REMOVED'; minValue?: number }[];
  moduleDescription?: string;
}

/** A module with its zones and composition (month M01_2027, AUR/SUN, family PILOT, zone EU by default). */
export async function buildModule(db: Db, spec: ModuleSpec) {
  const family = await buildFamily(db, spec.macroFamily ?? 'PILOT');
  const [row] = await db
    .insert(modules)
    .values({
      moduleName: spec.moduleName,
      monthId: spec.monthId ?? 'M01_2027',
      moduleLabel: `${spec.moduleName} label`,
      moduleDescription: spec.moduleDescription ?? '',
      macroFamily: family,
      brandCode: spec.brandCode ?? 'AUR',
      collection: spec.collection ?? 'SUN',
      status: spec.status ?? 'WIP',
    })
    .returning();
  const m = row!;
  const zones = spec.zones ?? ['EU'];
  if (zones.length) await db.insert(moduleStarsZones).values(zones.map((z) => ({ moduleId: m.id, starsZone: z })));
  const lines = spec.skus ?? [];
  if (lines.length)
    await db.insert(moduleSkus).values(
      lines.map((l, i) => ({
        moduleId: m.id,
        upc: l.upc,
        mustHave: l.mustHave ?? true,
        status: l.status ?? 'ADDED',
        previousMustHave: l.status === 'REMOVED' ? (l.mustHave ?? true) : null,
        minValue: l.minValue ?? 1,
        position: i,
      })),
    );
  return m;
}

export async function buildSkuStats(db: Db, upc: string, monthId: string, over: Partial<typeof skuMonthStats.$inferInsert> = {}) {
  await db.insert(skuMonthStats).values({
    upc,
    monthId,
    sellIn: 10,
    sellOut: 8,
    outOfStars: 1,
    rankSellIn: 1,
    rankSellOut: 1,
    rankOutOfStars: 1,
    skuTurn: 1.5,
    doorIndex: 60,
    pty: 3,
    ...over,
  });
}

let storeSeq = 0;
/** A store (with its stars customer) in a country of the reference world. */
export async function buildStore(db: Db, countryCode = 'IT') {
  storeSeq++;
  const customer = `CUST${countryCode}${storeSeq}`;
  await db
    .insert(starsCustomers)
    .values({ customerCode: customer, name: `Customer ${storeSeq}`, countryCode, planningChannelId: 'RETAIL', distributionChannel: 'OPTICIAN' });
  const [s] = await db
    .insert(stores)
    .values({
      storeJda: `J${storeSeq}${Math.floor(Math.random() * 1e6)}`,
      codiceStoreSap: `S${storeSeq}${Math.floor(Math.random() * 1e6)}`,
      name: `Store ${storeSeq}`,
      starsCustomer: customer,
      countryCode,
      customerSegmentation: 'GOLD',
      planningChannelId: 'RETAIL',
    })
    .returning();
  return s!;
}

export interface ClusterSpec {
  clusterId: string;
  monthId?: string;
  brandCode?: string;
  collection?: string;
  status?: string;
  countries?: string[];
  zones?: string[];
  storeJdas?: string[];
  lias?: string[];
  modules?: { moduleName: string; status?: 'ADDED' | 'REMOVED' }[];
  clusterDescription?: string;
}

/** A cluster (month M01_2027, AUR/SUN, country IT, zone EU by default) with its stores, LIAs and modules. */
export async function buildCluster(db: Db, spec: ClusterSpec) {
  const row = {
    clusterId: spec.clusterId,
    monthId: spec.monthId ?? 'M01_2027',
    clusterLabel: `${spec.clusterId} label`,
    clusterDescription: spec.clusterDescription ?? '',
    brandCode: spec.brandCode ?? 'AUR',
    collection: spec.collection ?? 'SUN',
    status: spec.status ?? 'WIP',
    releaseId: 'R2027',
  };
  // The children are written as the create call writes them (cluster-creation.repository).
  const children = { countries: spec.countries ?? ['IT'], zones: spec.zones ?? ['EU'], storeJdas: spec.storeJdas ?? [], lias: spec.lias ?? ['LIA01'], classificationIds: [] };
  const c = await insertCluster(db, row, children);
  await replaceClusterModules(db, c.id, (spec.modules ?? []).map((m) => ({ moduleName: m.moduleName, status: m.status ?? 'ADDED' })));
  return c;
}
