/**
 * The whole domain of both spec parts as PostgreSQL tables (Drizzle definitions).
 * `drizzle-kit generate` turns this file into the SQL migrations under ./migrations,
 * which are the single source the server applies at start (embedded PGlite or PostgreSQL 15+).
 *
 * Naming: tables are plural snake_case; items keep the spec's business keys
 * (moduleName + monthId, clusterId + monthId, upc) next to a surrogate `id` used for joins.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  foreignKey,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });

// ───────────────────────────── Calendar and releases ─────────────────────────────

export const releases = pgTable('releases', {
  releaseId: text('release_id').primaryKey(),
  creationDate: ts('creation_date').notNull().defaultNow(),
  /** OPEN | CLOSED */
  status: text('status').notNull().default('OPEN'),
  /** PUBLISHED | UNPUBLISHED */
  foVisibility: text('fo_visibility').notNull().default('UNPUBLISHED'),
  foPublicationDate: ts('fo_publication_date'),
  viewerVisibility: text('viewer_visibility').notNull().default('UNPUBLISHED'),
  viewerPublicationDate: ts('viewer_publication_date'),
});

export const months = pgTable(
  'months',
  {
    /** M{mm}_{yyyy}, e.g. M03_2027 */
    monthId: text('month_id').primaryKey(),
    year: integer('year').notNull(),
    month: integer('month').notNull(),
    open: boolean('open').notNull().default(true),
    /** The release a planning month belongs to (a release opens and closes its months). */
    releaseId: text('release_id').references(() => releases.releaseId),
  },
  (t) => [uniqueIndex('months_year_month_uq').on(t.year, t.month), index('months_release_idx').on(t.releaseId)],
);

// ───────────────────────────── Reference data ─────────────────────────────

export const brands = pgTable('brands', {
  brandCode: text('brand_code').primaryKey(),
  description: text('description').notNull(),
});

export const collections = pgTable('collections', {
  /** SUN | OPTICAL */
  collectionCode: text('collection_code').primaryKey(),
  description: text('description').notNull(),
});

export const planningChannels = pgTable('planning_channels', {
  planningChannelId: text('planning_channel_id').primaryKey(),
  label: text('label').notNull(),
});

export const starsZones = pgTable('stars_zones', {
  zoneCode: text('zone_code').primaryKey(),
  description: text('description').notNull(),
});

export const countries = pgTable('countries', {
  countryCode: text('country_code').primaryKey(),
  name: text('name').notNull(),
  starsZone: text('stars_zone')
    .notNull()
    .references(() => starsZones.zoneCode),
});

export const customerSegmentations = pgTable('customer_segmentations', {
  segmentationCode: text('segmentation_code').primaryKey(),
  label: text('label').notNull(),
});

export const starsCustomers = pgTable(
  'stars_customers',
  {
    customerCode: text('customer_code').primaryKey(),
    name: text('name').notNull(),
    countryCode: text('country_code')
      .notNull()
      .references(() => countries.countryCode),
    planningChannelId: text('planning_channel_id')
      .notNull()
      .references(() => planningChannels.planningChannelId),
    /** Distribution channel as the performance data calls it (distrChannelActual). */
    distributionChannel: text('distribution_channel').notNull(),
  },
  (t) => [index('stars_customers_country_idx').on(t.countryCode)],
);

export const stores = pgTable(
  'stores',
  {
    storeJda: text('store_jda').primaryKey(),
    codiceStoreSap: text('codice_store_sap').notNull().unique(),
    name: text('name').notNull(),
    starsCustomer: text('stars_customer')
      .notNull()
      .references(() => starsCustomers.customerCode),
    countryCode: text('country_code')
      .notNull()
      .references(() => countries.countryCode),
    customerSegmentation: text('customer_segmentation')
      .notNull()
      .references(() => customerSegmentations.segmentationCode),
    planningChannelId: text('planning_channel_id')
      .notNull()
      .references(() => planningChannels.planningChannelId),
  },
  (t) => [index('stores_customer_idx').on(t.starsCustomer), index('stores_country_idx').on(t.countryCode)],
);

/** LIA: a planning-channel assignment a cluster can carry (liaCode, planningChannelId). */
export const lias = pgTable('lias', {
  liaCode: text('lia_code').primaryKey(),
  planningChannelId: text('planning_channel_id')
    .notNull()
    .references(() => planningChannels.planningChannelId),
});

export const clientClassifications = pgTable('client_classifications', {
  classificationId: serial('classification_id').primaryKey(),
  /** A-Z, 0-9, _ and -, at most 15 characters. */
  classificationLabel: text('classification_label').notNull().unique(),
  createdAt: ts('created_at').notNull().defaultNow(),
  createdBy: text('created_by'),
});

export const templates = pgTable('templates', {
  templateId: serial('template_id').primaryKey(),
  templateLabel: text('template_label').notNull(),
  /** 'modulo' for modules, 'cluster' for clusters. */
  templatesType: text('templates_type').notNull(),
  /** Which columns the export writes, in order. */
  columns: jsonb('columns').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
});

/** LEGO months: a month is a LEGO month for a brand and collection. */
export const legoMonths = pgTable(
  'lego_months',
  {
    monthId: text('month_id')
      .notNull()
      .references(() => months.monthId),
    brandCode: text('brand_code')
      .notNull()
      .references(() => brands.brandCode),
    collection: text('collection')
      .notNull()
      .references(() => collections.collectionCode),
  },
  (t) => [primaryKey({ columns: [t.monthId, t.brandCode, t.collection] })],
);

export const macroFamilies = pgTable('macro_families', {
  macroFamily: text('macro_family').primaryKey(),
  /** BEST_SELLER | NEWNESS for the special families listed first; null otherwise. */
  specialKind: text('special_kind'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

// ───────────────────────────── Products ─────────────────────────────

export const skus = pgTable(
  'skus',
  {
    upc: text('upc').primaryKey(),
    skuId: bigint('sku_id', { mode: 'number' }).notNull().unique(),
    model: text('model').notNull(),
    color: text('color').notNull(),
    colorDescription: text('color_description').notNull(),
    size: text('size').notNull(),
    materialCode: text('material_code').notNull(),
    skuCode: text('sku_code').notNull(),
    brandCode: text('brand_code')
      .notNull()
      .references(() => brands.brandCode),
    collection: text('collection')
      .notNull()
      .references(() => collections.collectionCode),
    planningChannelId: text('planning_channel_id').references(() => planningChannels.planningChannelId),
    srp: money('srp').notNull(),
    whsprice: money('whsprice').notNull(),
    releaseDate: date('release_date', { mode: 'string' }).notNull(),
    insertDate: date('insert_date', { mode: 'string' }).notNull(),
    gedExpireDate: date('ged_expire_date', { mode: 'string' }),
    gedConfirmed: boolean('ged_confirmed').notNull().default(false),
    flagN: boolean('flag_n').notNull().default(false),
    flagNewAdv: boolean('flag_new_adv').notNull().default(false),
    flagDisco: boolean('flag_disco').notNull().default(false),
    /** Disco type shown in the disco area, e.g. 'Disco', 'Super disco'. */
    discoType: text('disco_type'),
    /** YES | Restrict | NO | other values */
    globalCatalogue: text('global_catalogue').notNull().default('YES'),
    polar: boolean('polar').notNull().default(false),
    /** 'Z' or 'I' mark the SKU disabled. */
    sapStatus: text('sap_status'),
    deleted: boolean('deleted').notNull().default(false),
    newIn: boolean('new_in').notNull().default(false),
    gender: text('gender').notNull(),
    frameMaterial: text('frame_material').notNull(),
    marketingTheme: text('marketing_theme').notNull(),
    prizm: boolean('prizm').notNull().default(false),
    /** LEGO class description used by performance filters (legoClassDes). */
    legoClass: text('lego_class'),
  },
  (t) => [
    index('skus_brand_collection_idx').on(t.brandCode, t.collection),
    index('skus_model_idx').on(t.model),
    index('skus_material_idx').on(t.materialCode),
    /** The few discontinued / deleted SKUs (DISCO/REMOVED bells and area), by brand. */
    index('skus_disco_idx').on(t.brandCode).where(sql`${t.flagDisco}`),
    index('skus_deleted_idx').on(t.brandCode).where(sql`${t.deleted}`),
  ],
);

/** Per-SKU monthly figures shown on SKU tiles (sell-in, sell-out, ranks, door index, pty). */
export const skuMonthStats = pgTable(
  'sku_month_stats',
  {
    upc: text('upc')
      .notNull()
      .references(() => skus.upc),
    monthId: text('month_id')
      .notNull()
      .references(() => months.monthId),
    sellIn: integer('sell_in').notNull(),
    sellOut: integer('sell_out').notNull(),
    outOfStars: integer('out_of_stars').notNull(),
    rankSellIn: integer('rank_sell_in').notNull(),
    rankSellOut: integer('rank_sell_out').notNull(),
    rankOutOfStars: integer('rank_out_of_stars').notNull(),
    skuTurn: numeric('sku_turn', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    doorIndex: integer('door_index').notNull(),
    pty: integer('pty').notNull(),
    extraSellIn: integer('extra_sell_in').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.upc, t.monthId] }), index('sku_month_stats_month_idx').on(t.monthId)],
);

/** Sell-in / sell-out facts per SKU, month, stars zone and customer segmentation (performance popup). */
export const skuPerformance = pgTable(
  'sku_performance',
  {
    upc: text('upc')
      .notNull()
      .references(() => skus.upc),
    monthId: text('month_id')
      .notNull()
      .references(() => months.monthId),
    starsZone: text('stars_zone')
      .notNull()
      .references(() => starsZones.zoneCode),
    customerSegmentation: text('customer_segmentation')
      .notNull()
      .references(() => customerSegmentations.segmentationCode),
    numDoor: integer('num_door').notNull(),
    sellIn: integer('sell_in').notNull(),
    sellOut: integer('sell_out').notNull(),
  },
  (t) => [primaryKey({ columns: [t.upc, t.monthId, t.starsZone, t.customerSegmentation] })],
);

// ───────────────────────────── Modules ─────────────────────────────

export const modules = pgTable(
  'modules',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    moduleName: text('module_name').notNull(),
    monthId: text('month_id')
      .notNull()
      .references(() => months.monthId),
    moduleLabel: text('module_label').notNull(),
    moduleDescription: text('module_description').notNull().default(''),
    macroFamily: text('macro_family')
      .notNull()
      .references(() => macroFamilies.macroFamily),
    brandCode: text('brand_code')
      .notNull()
      .references(() => brands.brandCode),
    collection: text('collection')
      .notNull()
      .references(() => collections.collectionCode),
    planningChannelId: text('planning_channel_id').references(() => planningChannels.planningChannelId),
    /** WIP | SUBMIT_IN_PROGRESS | SUBMITTED */
    status: text('status').notNull().default('WIP'),
    /** Newness = true, Carry Over = false */
    newModule: boolean('new_module').notNull().default(false),
    initialSize: integer('initial_size'),
    door: integer('door').notNull().default(0),
    rpasErrors: text('rpas_errors'),
    publicationDate: ts('publication_date'),
    /** null while the item lives; otherwise one of the deletion statuses. */
    deletionStatus: text('deletion_status'),
    createdAfterDelete: boolean('created_after_delete').notNull().default(false),
    /** Optimistic version, bumped by every write: guards against lost updates. */
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    createdBy: text('created_by'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    updatedBy: text('updated_by'),
    /**
     * MH / EL lines of the module not in the bin (module_skus, status <> 'REMOVED'). Kept by the database:
     * statement-level triggers on module_skus adjust them for every writer (migration 0010); never written
     * by the application (a copy of a module row must leave them out).
     */
    mhCount: integer('mh_count').notNull().default(0),
    elCount: integer('el_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('modules_name_month_uq').on(t.moduleName, t.monthId),
    index('modules_month_brand_idx').on(t.monthId, t.brandCode, t.collection),
    index('modules_month_family_idx').on(t.monthId, t.macroFamily),
    index('modules_label_idx').on(sql`lower(${t.moduleLabel})`),
    index('modules_status_idx').on(t.status),
    index('modules_deletion_idx').on(t.deletionStatus).where(sql`${t.deletionStatus} IS NOT NULL`),
    /** Live modules with planning-system warnings: the Pending Area bell counts them. */
    index('modules_pending_idx').on(t.monthId).where(sql`${t.rpasErrors} IS NOT NULL AND ${t.deletionStatus} IS NULL`),
  ],
);

export const moduleStarsZones = pgTable(
  'module_stars_zones',
  {
    moduleId: bigint('module_id', { mode: 'number' })
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    starsZone: text('stars_zone')
      .notNull()
      .references(() => starsZones.zoneCode),
  },
  (t) => [primaryKey({ columns: [t.moduleId, t.starsZone] }), index('module_stars_zones_zone_idx').on(t.starsZone)],
);

/** A module's SKU composition: MH or EL, status ADDED / NEW / REMOVED (REMOVED = in the bin). */
export const moduleSkus = pgTable(
  'module_skus',
  {
    moduleId: bigint('module_id', { mode: 'number' })
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    upc: text('upc')
      .notNull()
      .references(() => skus.upc),
    mustHave: boolean('must_have').notNull(),
    /** ADDED | NEW | REMOVED */
    status: text('status').notNull(),
    previousStatus: text('previous_status'),
    /** MH/EL class the SKU had before it went to the bin (restore warns when it differs). */
    previousMustHave: boolean('previous_must_have'),
    minValue: numeric('min_value', { precision: 9, scale: 1, mode: 'number' }).notNull().default(1),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.moduleId, t.upc] }), index('module_skus_upc_idx').on(t.upc)],
);

// ───────────────────────────── Clusters ─────────────────────────────

export const clusters = pgTable(
  'clusters',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: text('cluster_id').notNull(),
    monthId: text('month_id')
      .notNull()
      .references(() => months.monthId),
    clusterLabel: text('cluster_label').notNull(),
    clusterDescription: text('cluster_description').notNull().default(''),
    brandCode: text('brand_code')
      .notNull()
      .references(() => brands.brandCode),
    collection: text('collection')
      .notNull()
      .references(() => collections.collectionCode),
    planningChannelId: text('planning_channel_id').references(() => planningChannels.planningChannelId),
    releaseId: text('release_id').references(() => releases.releaseId),
    /** WIP | SUBMIT_IN_PROGRESS | SUBMITTED */
    status: text('status').notNull().default('WIP'),
    rangeFacing: text('range_facing'),
    rpasErrors: text('rpas_errors'),
    publicationDate: ts('publication_date'),
    deletionStatus: text('deletion_status'),
    createdAfterDelete: boolean('created_after_delete').notNull().default(false),
    /** Set when the cluster was created by approving a suggestion. */
    approvedFrom: text('approved_from'),
    approvedBy: text('approved_by'),
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    createdBy: text('created_by'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    updatedBy: text('updated_by'),
  },
  (t) => [
    uniqueIndex('clusters_id_month_uq').on(t.clusterId, t.monthId),
    /** What cluster_modules' month refers to (migration 0020). */
    unique('clusters_id_month_id_unique').on(t.id, t.monthId),
    index('clusters_month_brand_idx').on(t.monthId, t.brandCode, t.collection),
    index('clusters_label_idx').on(sql`lower(${t.clusterLabel})`),
    index('clusters_status_idx').on(t.status),
    index('clusters_deletion_idx').on(t.deletionStatus).where(sql`${t.deletionStatus} IS NOT NULL`),
    /** Live clusters with planning-system warnings (Pending Area bell). */
    index('clusters_pending_idx').on(t.monthId).where(sql`${t.rpasErrors} IS NOT NULL AND ${t.deletionStatus} IS NULL`),
  ],
);

export const clusterCountries = pgTable(
  'cluster_countries',
  {
    clusterPk: bigint('cluster_pk', { mode: 'number' })
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    countryCode: text('country_code')
      .notNull()
      .references(() => countries.countryCode),
  },
  (t) => [primaryKey({ columns: [t.clusterPk, t.countryCode] }), index('cluster_countries_country_idx').on(t.countryCode)],
);

export const clusterStarsZones = pgTable(
  'cluster_stars_zones',
  {
    clusterPk: bigint('cluster_pk', { mode: 'number' })
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    starsZone: text('stars_zone')
      .notNull()
      .references(() => starsZones.zoneCode),
  },
  (t) => [primaryKey({ columns: [t.clusterPk, t.starsZone] }), index('cluster_stars_zones_zone_idx').on(t.starsZone)],
);

export const clusterStores = pgTable(
  'cluster_stores',
  {
    clusterPk: bigint('cluster_pk', { mode: 'number' })
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    storeJda: text('store_jda')
      .notNull()
      .references(() => stores.storeJda),
  },
  (t) => [primaryKey({ columns: [t.clusterPk, t.storeJda] }), index('cluster_stores_store_idx').on(t.storeJda)],
);

export const clusterLias = pgTable(
  'cluster_lias',
  {
    clusterPk: bigint('cluster_pk', { mode: 'number' })
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    liaCode: text('lia_code')
      .notNull()
      .references(() => lias.liaCode),
  },
  (t) => [primaryKey({ columns: [t.clusterPk, t.liaCode] })],
);

export const clusterClassifications = pgTable(
  'cluster_classifications',
  {
    clusterPk: bigint('cluster_pk', { mode: 'number' })
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    classificationId: integer('classification_id')
      .notNull()
      .references(() => clientClassifications.classificationId, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.clusterPk, t.classificationId] })],
);

/** A cluster's modules (same month): ADDED or REMOVED (REMOVED = in the cluster's bin). */
export const clusterModules = pgTable(
  'cluster_modules',
  {
    clusterPk: bigint('cluster_pk', { mode: 'number' }).notNull(),
    /**
     * Its cluster's month (migration 0020), so that a module's clusters of one month are found by index: the foreign
     * key below holds it to the cluster's. No default of its own: an insert that leaves it out has it filled from the
     * cluster by a trigger.
     */
    monthId: text('month_id')
      .notNull()
      .default(sql`NULL`),
    moduleName: text('module_name').notNull(),
    /** ADDED | REMOVED */
    status: text('status').notNull().default('ADDED'),
  },
  (t) => [
    primaryKey({ columns: [t.clusterPk, t.moduleName] }),
    foreignKey({ name: 'cluster_modules_cluster_month_fk', columns: [t.clusterPk, t.monthId], foreignColumns: [clusters.id, clusters.monthId] })
      .onDelete('cascade')
      .onUpdate('cascade'),
    index('cluster_modules_module_month_idx').on(t.moduleName, t.monthId),
  ],
);

// ───────────────────────────── Suggested clusters ─────────────────────────────

export const suggestedClusters = pgTable(
  'suggested_clusters',
  {
    assortmentId: text('assortment_id').primaryKey(),
    originalAssortment: text('original_assortment').notNull(),
    releaseId: text('release_id').references(() => releases.releaseId),
    monthId: text('month_id').references(() => months.monthId),
    brandCode: text('brand_code').references(() => brands.brandCode),
    collection: text('collection').references(() => collections.collectionCode),
    country: text('country')
      .notNull()
      .references(() => countries.countryCode),
    userSuggest: text('user_suggest').notNull(),
    dateSuggest: date('date_suggest', { mode: 'string' }).notNull(),
    period: text('period').notNull(),
    /** PENDING | APPROVED | REJECTED */
    status: text('status').notNull().default('PENDING'),
    message: text('message'),
    decidedBy: text('decided_by'),
    decidedAt: ts('decided_at'),
  },
  (t) => [index('suggested_clusters_status_idx').on(t.status), index('suggested_clusters_country_idx').on(t.country)],
);

export const suggestedClusterStores = pgTable(
  'suggested_cluster_stores',
  {
    assortmentId: text('assortment_id')
      .notNull()
      .references(() => suggestedClusters.assortmentId, { onDelete: 'cascade' }),
    storeJda: text('store_jda')
      .notNull()
      .references(() => stores.storeJda),
    starsCustomer: text('stars_customer').notNull(),
    customerSegmentation: text('customer_segmentation').notNull(),
  },
  (t) => [primaryKey({ columns: [t.assortmentId, t.storeJda] })],
);

export const suggestedClusterModules = pgTable(
  'suggested_cluster_modules',
  {
    assortmentId: text('assortment_id')
      .notNull()
      .references(() => suggestedClusters.assortmentId, { onDelete: 'cascade' }),
    moduleName: text('module_name').notNull(),
    /** SWITCH | NOT SWITCH | other values (not shown in the preview) */
    foType: text('fo_type').notNull(),
    moduleNameSwitch: text('module_name_switch'),
    added: boolean('added').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.assortmentId, t.moduleName] })],
);

// ───────────────────────────── Users and grants ─────────────────────────────

export const users = pgTable(
  'users',
  {
    userId: serial('user_id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    country: text('country'),
    /** bcrypt-like slow salted hash (argon2id); null for users who never set a password. */
    passwordHash: text('password_hash'),
    /** ADMIN | CREATOR | EDITOR | SUBMITTER | VIEWER; null = no role yet. */
    role: text('role'),
    /** Enabled | Disabled | New */
    status: text('status').notNull().default('New'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
  ],
);

export const rules = pgTable('rules', {
  /** reopen | create | delete | import */
  ruleCode: text('rule_code').primaryKey(),
  description: text('description').notNull(),
  /** The permission level the rule hangs on (edit or submit). */
  permissionType: text('permission_type').notNull(),
});

/** One grant row: (user, type brand|starszone|rule, code, permission view|edit|submit). */
export const userGrants = pgTable(
  'user_grants',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    /** brand | starszone | rule */
    grantType: text('grant_type').notNull(),
    grantCode: text('grant_code').notNull(),
    /** view | edit | submit */
    permissionType: text('permission_type').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.grantType, t.grantCode, t.permissionType] }),
    index('user_grants_code_idx').on(t.grantType, t.grantCode),
  ],
);

/** The identity provider's list of allowed e-mails (new users must be on it). */
export const allowedEmails = pgTable('allowed_emails', {
  email: text('email').primaryKey(),
  addedAt: ts('added_at').notNull().defaultNow(),
});

/** Failed-login counters per key ('user:<name>' or 'ip:<address>') for slowing down guessing. */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: ts('last_failure_at').notNull().defaultNow(),
  blockedUntil: ts('blocked_until'),
});

/**
 * Tokens ended by a logout before their expiry, by the SHA-256 of the token (hex): the session statement refuses
 * them on every process. A row is useless once its token has expired (the signature check refuses it then) and the
 * hourly cleanup removes it (auth/session-cleanup.ts).
 */
export const revokedTokens = pgTable('revoked_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  username: text('username').notNull(),
  /** The token's own expiry (its `exp`). */
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at').notNull().defaultNow(),
});

/** Small key-value settings owned by the server (e.g. the generated token-signing secret). */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

// ───────────────────────────── Locks, jobs, uploads, exports ─────────────────────────────

export const locks = pgTable(
  'locks',
  {
    /** module | cluster | macroFamily */
    itemType: text('item_type').notNull(),
    /** moduleName, clusterId or macroFamily name */
    itemKey: text('item_key').notNull(),
    monthId: text('month_id').notNull(),
    owner: text('owner').notNull(),
    acquiredAt: ts('acquired_at').notNull().defaultNow(),
    renewedAt: ts('renewed_at').notNull().defaultNow(),
    /** Leased by an open page (PUT /api/presence): live this many seconds after renewed_at; NULL: LOCK_TTL_MINUTES (migration 0016). */
    leaseSeconds: integer('lease_seconds'),
  },
  (t) => [primaryKey({ columns: [t.itemType, t.itemKey, t.monthId] }), index('locks_owner_idx').on(sql`lower(${t.owner})`)],
);

/** A browser tab of the live stream (docs/LIVE.md): its owner, so that no other user changes its presence. */
const liveTabs = pgTable(
  'live_tabs',
  {
    tabId: uuid('tab_id').primaryKey(),
    username: text('username').notNull(),
    openedAt: ts('opened_at').notNull().defaultNow(),
    seenAt: ts('seen_at').notNull().defaultNow(),
  },
  (t) => [index('live_tabs_seen_idx').on(t.seenAt)],
);

/** What one tab has open (PUT /api/presence); removed with the tab's stream or when not renewed for PRESENCE_TTL_SECONDS. */
export const presence = pgTable(
  'presence',
  {
    tabId: uuid('tab_id')
      .notNull()
      .references(() => liveTabs.tabId, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    /** module | cluster */
    itemType: text('item_type').notNull(),
    itemKey: text('item_key').notNull(),
    monthId: text('month_id').notNull(),
    /** editing | viewing */
    mode: text('mode').notNull(),
    since: ts('since').notNull().defaultNow(),
    seenAt: ts('seen_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tabId, t.itemType, t.itemKey, t.monthId] }),
    index('presence_item_idx').on(t.itemType, t.itemKey, t.monthId),
    index('presence_seen_idx').on(t.seenAt),
  ],
);

export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** publish | copy | deletion | massiveEdit | import | export | fileLoad … */
    kind: text('kind').notNull(),
    /** QUEUED | RUNNING | DONE | FAILED */
    status: text('status').notNull().default('QUEUED'),
    progress: integer('progress').notNull().default(0),
    payload: jsonb('payload').notNull(),
    result: jsonb('result'),
    /** Human-readable answer, ';'-separated lines. */
    response: text('response'),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    runAfter: ts('run_after').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    /** Worker that holds the job, and its heartbeat: a stale heartbeat means the worker died. */
    workerId: text('worker_id'),
    heartbeatAt: ts('heartbeat_at'),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [index('jobs_status_run_after_idx').on(t.status, t.runAfter), index('jobs_kind_idx').on(t.kind, t.createdAt)],
);

/**
 * One finished step of a job that reports per step (massive edit): written in the step's own
 * transaction, so a resumed job neither repeats nor loses a step's outcome.
 */
export const jobSteps = pgTable(
  'job_steps',
  {
    jobId: bigint('job_id', { mode: 'number' })
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    step: integer('step').notNull(),
    outcome: jsonb('outcome').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.step] })],
);

export const uploads = pgTable(
  'uploads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** MODULE_MASSIVE_CREATION | CLUSTER_MASSIVE_CREATION | FILE_LOADER */
    type: text('type').notNull(),
    userId: text('user_id').notNull(),
    insertTime: ts('insert_time').notNull().defaultNow(),
    fileName: text('file_name').notNull(),
    /** Bytes of the uploaded file(s). */
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
    /**
     * The job that processes the upload: its status (QUEUED/RUNNING → WIP, DONE → DONE, FAILED →
     * ERROR), progress and response are the upload's, read through this (docs/IMPORTS.md "States").
     */
    jobId: bigint('job_id', { mode: 'number' })
      .notNull()
      .references(() => jobs.id),
    /** An upload sent with a preview (docs/IMPORT-PREVIEW.md): the job that computed it (job_id until Apply). */
    previewJobId: bigint('preview_job_id', { mode: 'number' }).references(() => jobs.id),
    /** The preview's decision: null while it waits, APPLIED (job_id is then the import's) or CANCELLED. */
    decision: text('decision'),
  },
  (t) => [index('uploads_insert_time_idx').on(t.insertTime), index('uploads_user_idx').on(sql`lower(${t.userId})`), index('uploads_job_idx').on(t.jobId)],
);

/**
 * The files of an upload that has several (Upload Files, FILE_LOADER: module, cluster, registry,
 * segment — docs/IMPORTS.md "Upload Files"); such an upload's own `content` is empty.
 */
export const uploadFiles = pgTable(
  'upload_files',
  {
    uploadId: bigint('upload_id', { mode: 'number' })
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    /** The multipart field the file came in. */
    field: text('field').notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.field] })],
);

/** The bytes of an upload file, in pieces of UPLOAD_CHUNK_BYTES: written and read as streams, never whole in memory. */
export const uploadFileChunks = pgTable(
  'upload_file_chunks',
  {
    uploadId: bigint('upload_id', { mode: 'number' }).notNull(),
    field: text('field').notNull(),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.uploadId, t.field, t.seq] }),
    foreignKey({ columns: [t.uploadId, t.field], foreignColumns: [uploadFiles.uploadId, uploadFiles.field] }).onDelete('cascade'),
  ],
);

export const exportFiles = pgTable(
  'export_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    date: ts('date').notNull().defaultNow(),
    user: text('user_name').notNull(),
    /** e.g. xls, xls/photo, pdf, pdf_massive … */
    exportType: text('export_type').notNull(),
    /** WIP | DONE | ERROR */
    status: text('status').notNull().default('WIP'),
    progress: integer('progress').notNull().default(0),
    fileName: text('file_name'),
    contentType: text('content_type'),
    content: bytea('content'),
    message: text('message'),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id),
    /** What it holds (migration 0014), recorded by the call: module | cluster, how many, the first names, the months; null before. */
    itemKind: text('item_kind'),
    itemCount: integer('item_count'),
    itemNames: jsonb('item_names').$type<string[]>(),
    monthIds: jsonb('month_ids').$type<string[]>(),
  },
  (t) => [index('export_files_date_idx').on(t.date)],
);

/** The bytes of an export's file, in pieces of about 1 MiB, written as the file is built and read as a stream. */
export const exportFileChunks = pgTable(
  'export_file_chunks',
  {
    exportId: bigint('export_id', { mode: 'number' })
      .notNull()
      .references(() => exportFiles.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exportId, t.seq] })],
);

/** A deletion request: an item deleted from a start month onwards, followed by the scheduled steps. */
export const deletionRequests = pgTable(
  'deletion_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** module | cluster */
    itemType: text('item_type').notNull(),
    itemKey: text('item_key').notNull(),
    deleteFromMonthId: text('delete_from_month_id')
      .notNull()
      .references(() => months.monthId),
    requestedBy: text('requested_by').notNull(),
    requestedAt: ts('requested_at').notNull().defaultNow(),
    errorMessage: text('error_message'),
    /** false once restored */
    active: boolean('active').notNull().default(true),
  },
  (t) => [index('deletion_requests_item_idx').on(t.itemType, t.itemKey)],
);

/**
 * Item versions (docs/versions.md): a compact snapshot of a module's or cluster's content per item-month,
 * written by the `record_item_version` constraint trigger at commit of every transaction that bumps the
 * item's `version` (or publishes it). `content` is @bo/shared/item-versions' Module/ClusterVersionContent.
 */
export const itemVersions = pgTable(
  'item_versions',
  {
    /** module | cluster */
    itemType: text('item_type').notNull(),
    itemKey: text('item_key').notNull(),
    monthId: text('month_id').notNull(),
    /** 1..n per item-month, 1 = the oldest. */
    version: integer('version').notNull(),
    /** One of VERSION_ACTIONS. */
    action: text('action').notNull(),
    username: text('username').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    content: jsonb('content').notNull(),
    /** For a revert: the version restored. */
    revertOf: integer('revert_of'),
    /** The writing transaction (one version per item-month and transaction). */
    txId: bigint('tx_id', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.itemType, t.itemKey, t.monthId, t.version] }),
    /** The newest 'publish' version of an item-month (publishDiff). */
    index('item_versions_publish_idx').on(t.itemType, t.itemKey, t.monthId, t.version).where(sql`${t.action} = 'publish'`),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    username: text('username').notNull(),
    /** save | publish | copy | delete | restore | lock-override | grant-change | upload | login … */
    action: text('action').notNull(),
    itemType: text('item_type'),
    itemKey: text('item_key'),
    monthId: text('month_id'),
    summary: jsonb('summary'),
    requestId: text('request_id'),
  },
  (t) => [index('audit_log_item_idx').on(t.itemType, t.itemKey), index('audit_log_at_idx').on(t.at)],
);
