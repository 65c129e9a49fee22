CREATE TABLE "allowed_emails" (
	"email" text PRIMARY KEY NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"username" text NOT NULL,
	"action" text NOT NULL,
	"item_type" text,
	"item_key" text,
	"month_id" text,
	"summary" jsonb,
	"request_id" text
);
--> statement-breakpoint
CREATE TABLE "brands" (
	"brand_code" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_classifications" (
	"classification_id" serial PRIMARY KEY NOT NULL,
	"classification_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	CONSTRAINT "client_classifications_classification_label_unique" UNIQUE("classification_label")
);
--> statement-breakpoint
CREATE TABLE "cluster_classifications" (
	"cluster_pk" bigint NOT NULL,
	"classification_id" integer NOT NULL,
	CONSTRAINT "cluster_classifications_cluster_pk_classification_id_pk" PRIMARY KEY("cluster_pk","classification_id")
);
--> statement-breakpoint
CREATE TABLE "cluster_countries" (
	"cluster_pk" bigint NOT NULL,
	"country_code" text NOT NULL,
	CONSTRAINT "cluster_countries_cluster_pk_country_code_pk" PRIMARY KEY("cluster_pk","country_code")
);
--> statement-breakpoint
CREATE TABLE "cluster_lias" (
	"cluster_pk" bigint NOT NULL,
	"lia_code" text NOT NULL,
	CONSTRAINT "cluster_lias_cluster_pk_lia_code_pk" PRIMARY KEY("cluster_pk","lia_code")
);
--> statement-breakpoint
CREATE TABLE "cluster_modules" (
	"cluster_pk" bigint NOT NULL,
	"module_name" text NOT NULL,
	"status" text DEFAULT 'ADDED' NOT NULL,
	CONSTRAINT "cluster_modules_cluster_pk_module_name_pk" PRIMARY KEY("cluster_pk","module_name")
);
--> statement-breakpoint
CREATE TABLE "cluster_stars_zones" (
	"cluster_pk" bigint NOT NULL,
	"stars_zone" text NOT NULL,
	CONSTRAINT "cluster_stars_zones_cluster_pk_stars_zone_pk" PRIMARY KEY("cluster_pk","stars_zone")
);
--> statement-breakpoint
CREATE TABLE "cluster_stores" (
	"cluster_pk" bigint NOT NULL,
	"store_jda" text NOT NULL,
	CONSTRAINT "cluster_stores_cluster_pk_store_jda_pk" PRIMARY KEY("cluster_pk","store_jda")
);
--> statement-breakpoint
CREATE TABLE "clusters" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" text NOT NULL,
	"month_id" text NOT NULL,
	"cluster_label" text NOT NULL,
	"cluster_description" text DEFAULT '' NOT NULL,
	"brand_code" text NOT NULL,
	"collection" text NOT NULL,
	"planning_channel_id" text,
	"release_id" text,
	"status" text DEFAULT 'WIP' NOT NULL,
	"range_facing" text,
	"rpas_errors" text,
	"publication_date" timestamp with time zone,
	"deletion_status" text,
	"created_after_delete" boolean DEFAULT false NOT NULL,
	"approved_from" text,
	"approved_by" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "collections" (
	"collection_code" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"country_code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"stars_zone" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_segmentations" (
	"segmentation_code" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deletion_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"item_type" text NOT NULL,
	"item_key" text NOT NULL,
	"delete_from_month_id" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"error_message" text,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "export_files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"date" timestamp with time zone DEFAULT now() NOT NULL,
	"user_name" text NOT NULL,
	"export_type" text NOT NULL,
	"status" text DEFAULT 'WIP' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"file_name" text,
	"content_type" text,
	"content" "bytea",
	"message" text,
	"job_id" bigint
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"payload" jsonb NOT NULL,
	"result" jsonb,
	"response" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"worker_id" text,
	"heartbeat_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lego_months" (
	"month_id" text NOT NULL,
	"brand_code" text NOT NULL,
	"collection" text NOT NULL,
	CONSTRAINT "lego_months_month_id_brand_code_collection_pk" PRIMARY KEY("month_id","brand_code","collection")
);
--> statement-breakpoint
CREATE TABLE "lias" (
	"lia_code" text PRIMARY KEY NOT NULL,
	"planning_channel_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locks" (
	"item_type" text NOT NULL,
	"item_key" text NOT NULL,
	"month_id" text NOT NULL,
	"owner" text NOT NULL,
	"acquired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"renewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "locks_item_type_item_key_month_id_pk" PRIMARY KEY("item_type","item_key","month_id")
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "macro_families" (
	"macro_family" text PRIMARY KEY NOT NULL,
	"special_kind" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "module_skus" (
	"module_id" bigint NOT NULL,
	"upc" text NOT NULL,
	"must_have" boolean NOT NULL,
	"status" text NOT NULL,
	"previous_status" text,
	"previous_must_have" boolean,
	"min_value" numeric(9, 1) DEFAULT 1 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "module_skus_module_id_upc_pk" PRIMARY KEY("module_id","upc")
);
--> statement-breakpoint
CREATE TABLE "module_stars_zones" (
	"module_id" bigint NOT NULL,
	"stars_zone" text NOT NULL,
	CONSTRAINT "module_stars_zones_module_id_stars_zone_pk" PRIMARY KEY("module_id","stars_zone")
);
--> statement-breakpoint
CREATE TABLE "modules" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"module_name" text NOT NULL,
	"month_id" text NOT NULL,
	"module_label" text NOT NULL,
	"module_description" text DEFAULT '' NOT NULL,
	"macro_family" text NOT NULL,
	"brand_code" text NOT NULL,
	"collection" text NOT NULL,
	"planning_channel_id" text,
	"status" text DEFAULT 'WIP' NOT NULL,
	"new_module" boolean DEFAULT false NOT NULL,
	"initial_size" integer,
	"door" integer DEFAULT 0 NOT NULL,
	"rpas_errors" text,
	"publication_date" timestamp with time zone,
	"deletion_status" text,
	"created_after_delete" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "months" (
	"month_id" text PRIMARY KEY NOT NULL,
	"year" integer NOT NULL,
	"month" integer NOT NULL,
	"open" boolean DEFAULT true NOT NULL,
	"release_id" text
);
--> statement-breakpoint
CREATE TABLE "planning_channels" (
	"planning_channel_id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"release_id" text PRIMARY KEY NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"fo_visibility" text DEFAULT 'UNPUBLISHED' NOT NULL,
	"fo_publication_date" timestamp with time zone,
	"viewer_visibility" text DEFAULT 'UNPUBLISHED' NOT NULL,
	"viewer_publication_date" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rules" (
	"rule_code" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"permission_type" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sku_month_stats" (
	"upc" text NOT NULL,
	"month_id" text NOT NULL,
	"sell_in" integer NOT NULL,
	"sell_out" integer NOT NULL,
	"out_of_stars" integer NOT NULL,
	"rank_sell_in" integer NOT NULL,
	"rank_sell_out" integer NOT NULL,
	"rank_out_of_stars" integer NOT NULL,
	"sku_turn" numeric(10, 2) NOT NULL,
	"door_index" integer NOT NULL,
	"pty" integer NOT NULL,
	"extra_sell_in" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sku_month_stats_upc_month_id_pk" PRIMARY KEY("upc","month_id")
);
--> statement-breakpoint
CREATE TABLE "sku_performance" (
	"upc" text NOT NULL,
	"month_id" text NOT NULL,
	"stars_zone" text NOT NULL,
	"customer_segmentation" text NOT NULL,
	"num_door" integer NOT NULL,
	"sell_in" integer NOT NULL,
	"sell_out" integer NOT NULL,
	CONSTRAINT "sku_performance_upc_month_id_stars_zone_customer_segmentation_pk" PRIMARY KEY("upc","month_id","stars_zone","customer_segmentation")
);
--> statement-breakpoint
CREATE TABLE "skus" (
	"upc" text PRIMARY KEY NOT NULL,
	"sku_id" bigint NOT NULL,
	"model" text NOT NULL,
	"color" text NOT NULL,
	"color_description" text NOT NULL,
	"size" text NOT NULL,
	"material_code" text NOT NULL,
	"sku_code" text NOT NULL,
	"brand_code" text NOT NULL,
	"collection" text NOT NULL,
	"planning_channel_id" text,
	"srp" numeric(12, 2) NOT NULL,
	"whsprice" numeric(12, 2) NOT NULL,
	"release_date" date NOT NULL,
	"insert_date" date NOT NULL,
	"ged_expire_date" date,
	"ged_confirmed" boolean DEFAULT false NOT NULL,
	"flag_n" boolean DEFAULT false NOT NULL,
	"flag_new_adv" boolean DEFAULT false NOT NULL,
	"flag_disco" boolean DEFAULT false NOT NULL,
	"disco_type" text,
	"global_catalogue" text DEFAULT 'YES' NOT NULL,
	"polar" boolean DEFAULT false NOT NULL,
	"sap_status" text,
	"deleted" boolean DEFAULT false NOT NULL,
	"new_in" boolean DEFAULT false NOT NULL,
	"gender" text NOT NULL,
	"frame_material" text NOT NULL,
	"marketing_theme" text NOT NULL,
	"prizm" boolean DEFAULT false NOT NULL,
	"lego_class" text,
	CONSTRAINT "skus_sku_id_unique" UNIQUE("sku_id")
);
--> statement-breakpoint
CREATE TABLE "stars_customers" (
	"customer_code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country_code" text NOT NULL,
	"planning_channel_id" text NOT NULL,
	"distribution_channel" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stars_zones" (
	"zone_code" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stores" (
	"store_jda" text PRIMARY KEY NOT NULL,
	"codice_store_sap" text NOT NULL,
	"name" text NOT NULL,
	"stars_customer" text NOT NULL,
	"country_code" text NOT NULL,
	"customer_segmentation" text NOT NULL,
	"planning_channel_id" text NOT NULL,
	CONSTRAINT "stores_codice_store_sap_unique" UNIQUE("codice_store_sap")
);
--> statement-breakpoint
CREATE TABLE "suggested_cluster_modules" (
	"assortment_id" text NOT NULL,
	"module_name" text NOT NULL,
	"fo_type" text NOT NULL,
	"module_name_switch" text,
	"added" boolean DEFAULT false NOT NULL,
	CONSTRAINT "suggested_cluster_modules_assortment_id_module_name_pk" PRIMARY KEY("assortment_id","module_name")
);
--> statement-breakpoint
CREATE TABLE "suggested_cluster_stores" (
	"assortment_id" text NOT NULL,
	"store_jda" text NOT NULL,
	"stars_customer" text NOT NULL,
	"customer_segmentation" text NOT NULL,
	CONSTRAINT "suggested_cluster_stores_assortment_id_store_jda_pk" PRIMARY KEY("assortment_id","store_jda")
);
--> statement-breakpoint
CREATE TABLE "suggested_clusters" (
	"assortment_id" text PRIMARY KEY NOT NULL,
	"original_assortment" text NOT NULL,
	"release_id" text,
	"month_id" text,
	"brand_code" text,
	"collection" text,
	"country" text NOT NULL,
	"user_suggest" text NOT NULL,
	"date_suggest" date NOT NULL,
	"period" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"message" text,
	"decided_by" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"template_id" serial PRIMARY KEY NOT NULL,
	"template_label" text NOT NULL,
	"templates_type" text NOT NULL,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"user_id" text NOT NULL,
	"insert_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'WIP' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"response" text,
	"file_name" text NOT NULL,
	"content" "bytea" NOT NULL,
	"job_id" bigint
);
--> statement-breakpoint
CREATE TABLE "user_grants" (
	"user_id" integer NOT NULL,
	"grant_type" text NOT NULL,
	"grant_code" text NOT NULL,
	"permission_type" text NOT NULL,
	CONSTRAINT "user_grants_user_id_grant_type_grant_code_permission_type_pk" PRIMARY KEY("user_id","grant_type","grant_code","permission_type")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"user_id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"country" text,
	"password_hash" text,
	"role" text,
	"status" text DEFAULT 'New' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cluster_classifications" ADD CONSTRAINT "cluster_classifications_cluster_pk_clusters_id_fk" FOREIGN KEY ("cluster_pk") REFERENCES "clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_classifications" ADD CONSTRAINT "cluster_classifications_classification_id_client_classifications_classification_id_fk" FOREIGN KEY ("classification_id") REFERENCES "client_classifications"("classification_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_countries" ADD CONSTRAINT "cluster_countries_cluster_pk_clusters_id_fk" FOREIGN KEY ("cluster_pk") REFERENCES "clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_countries" ADD CONSTRAINT "cluster_countries_country_code_countries_country_code_fk" FOREIGN KEY ("country_code") REFERENCES "countries"("country_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_lias" ADD CONSTRAINT "cluster_lias_cluster_pk_clusters_id_fk" FOREIGN KEY ("cluster_pk") REFERENCES "clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_lias" ADD CONSTRAINT "cluster_lias_lia_code_lias_lia_code_fk" FOREIGN KEY ("lia_code") REFERENCES "lias"("lia_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_modules" ADD CONSTRAINT "cluster_modules_cluster_pk_clusters_id_fk" FOREIGN KEY ("cluster_pk") REFERENCES "clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_stars_zones" ADD CONSTRAINT "cluster_stars_zones_cluster_pk_clusters_id_fk" FOREIGN KEY ("cluster_pk") REFERENCES "clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_stars_zones" ADD CONSTRAINT "cluster_stars_zones_stars_zone_stars_zones_zone_code_fk" FOREIGN KEY ("stars_zone") REFERENCES "stars_zones"("zone_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_stores" ADD CONSTRAINT "cluster_stores_cluster_pk_clusters_id_fk" FOREIGN KEY ("cluster_pk") REFERENCES "clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_stores" ADD CONSTRAINT "cluster_stores_store_jda_stores_store_jda_fk" FOREIGN KEY ("store_jda") REFERENCES "stores"("store_jda") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_month_id_months_month_id_fk" FOREIGN KEY ("month_id") REFERENCES "months"("month_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_brand_code_brands_brand_code_fk" FOREIGN KEY ("brand_code") REFERENCES "brands"("brand_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_collection_collections_collection_code_fk" FOREIGN KEY ("collection") REFERENCES "collections"("collection_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_planning_channel_id_planning_channels_planning_channel_id_fk" FOREIGN KEY ("planning_channel_id") REFERENCES "planning_channels"("planning_channel_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_release_id_releases_release_id_fk" FOREIGN KEY ("release_id") REFERENCES "releases"("release_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "countries" ADD CONSTRAINT "countries_stars_zone_stars_zones_zone_code_fk" FOREIGN KEY ("stars_zone") REFERENCES "stars_zones"("zone_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deletion_requests" ADD CONSTRAINT "deletion_requests_delete_from_month_id_months_month_id_fk" FOREIGN KEY ("delete_from_month_id") REFERENCES "months"("month_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_files" ADD CONSTRAINT "export_files_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lego_months" ADD CONSTRAINT "lego_months_month_id_months_month_id_fk" FOREIGN KEY ("month_id") REFERENCES "months"("month_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lego_months" ADD CONSTRAINT "lego_months_brand_code_brands_brand_code_fk" FOREIGN KEY ("brand_code") REFERENCES "brands"("brand_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lego_months" ADD CONSTRAINT "lego_months_collection_collections_collection_code_fk" FOREIGN KEY ("collection") REFERENCES "collections"("collection_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lias" ADD CONSTRAINT "lias_planning_channel_id_planning_channels_planning_channel_id_fk" FOREIGN KEY ("planning_channel_id") REFERENCES "planning_channels"("planning_channel_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_skus" ADD CONSTRAINT "module_skus_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_skus" ADD CONSTRAINT "module_skus_upc_skus_upc_fk" FOREIGN KEY ("upc") REFERENCES "skus"("upc") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_stars_zones" ADD CONSTRAINT "module_stars_zones_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "module_stars_zones" ADD CONSTRAINT "module_stars_zones_stars_zone_stars_zones_zone_code_fk" FOREIGN KEY ("stars_zone") REFERENCES "stars_zones"("zone_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_month_id_months_month_id_fk" FOREIGN KEY ("month_id") REFERENCES "months"("month_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_macro_family_macro_families_macro_family_fk" FOREIGN KEY ("macro_family") REFERENCES "macro_families"("macro_family") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_brand_code_brands_brand_code_fk" FOREIGN KEY ("brand_code") REFERENCES "brands"("brand_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_collection_collections_collection_code_fk" FOREIGN KEY ("collection") REFERENCES "collections"("collection_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_planning_channel_id_planning_channels_planning_channel_id_fk" FOREIGN KEY ("planning_channel_id") REFERENCES "planning_channels"("planning_channel_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "months" ADD CONSTRAINT "months_release_id_releases_release_id_fk" FOREIGN KEY ("release_id") REFERENCES "releases"("release_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sku_month_stats" ADD CONSTRAINT "sku_month_stats_upc_skus_upc_fk" FOREIGN KEY ("upc") REFERENCES "skus"("upc") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sku_month_stats" ADD CONSTRAINT "sku_month_stats_month_id_months_month_id_fk" FOREIGN KEY ("month_id") REFERENCES "months"("month_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sku_performance" ADD CONSTRAINT "sku_performance_upc_skus_upc_fk" FOREIGN KEY ("upc") REFERENCES "skus"("upc") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sku_performance" ADD CONSTRAINT "sku_performance_month_id_months_month_id_fk" FOREIGN KEY ("month_id") REFERENCES "months"("month_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sku_performance" ADD CONSTRAINT "sku_performance_stars_zone_stars_zones_zone_code_fk" FOREIGN KEY ("stars_zone") REFERENCES "stars_zones"("zone_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sku_performance" ADD CONSTRAINT "sku_performance_customer_segmentation_customer_segmentations_segmentation_code_fk" FOREIGN KEY ("customer_segmentation") REFERENCES "customer_segmentations"("segmentation_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skus" ADD CONSTRAINT "skus_brand_code_brands_brand_code_fk" FOREIGN KEY ("brand_code") REFERENCES "brands"("brand_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skus" ADD CONSTRAINT "skus_collection_collections_collection_code_fk" FOREIGN KEY ("collection") REFERENCES "collections"("collection_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skus" ADD CONSTRAINT "skus_planning_channel_id_planning_channels_planning_channel_id_fk" FOREIGN KEY ("planning_channel_id") REFERENCES "planning_channels"("planning_channel_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stars_customers" ADD CONSTRAINT "stars_customers_country_code_countries_country_code_fk" FOREIGN KEY ("country_code") REFERENCES "countries"("country_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stars_customers" ADD CONSTRAINT "stars_customers_planning_channel_id_planning_channels_planning_channel_id_fk" FOREIGN KEY ("planning_channel_id") REFERENCES "planning_channels"("planning_channel_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_stars_customer_stars_customers_customer_code_fk" FOREIGN KEY ("stars_customer") REFERENCES "stars_customers"("customer_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_country_code_countries_country_code_fk" FOREIGN KEY ("country_code") REFERENCES "countries"("country_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_customer_segmentation_customer_segmentations_segmentation_code_fk" FOREIGN KEY ("customer_segmentation") REFERENCES "customer_segmentations"("segmentation_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_planning_channel_id_planning_channels_planning_channel_id_fk" FOREIGN KEY ("planning_channel_id") REFERENCES "planning_channels"("planning_channel_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suggested_cluster_modules" ADD CONSTRAINT "suggested_cluster_modules_assortment_id_suggested_clusters_assortment_id_fk" FOREIGN KEY ("assortment_id") REFERENCES "suggested_clusters"("assortment_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suggested_cluster_stores" ADD CONSTRAINT "suggested_cluster_stores_assortment_id_suggested_clusters_assortment_id_fk" FOREIGN KEY ("assortment_id") REFERENCES "suggested_clusters"("assortment_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suggested_cluster_stores" ADD CONSTRAINT "suggested_cluster_stores_store_jda_stores_store_jda_fk" FOREIGN KEY ("store_jda") REFERENCES "stores"("store_jda") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suggested_clusters" ADD CONSTRAINT "suggested_clusters_release_id_releases_release_id_fk" FOREIGN KEY ("release_id") REFERENCES "releases"("release_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suggested_clusters" ADD CONSTRAINT "suggested_clusters_month_id_months_month_id_fk" FOREIGN KEY ("month_id") REFERENCES "months"("month_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suggested_clusters" ADD CONSTRAINT "suggested_clusters_brand_code_brands_brand_code_fk" FOREIGN KEY ("brand_code") REFERENCES "brands"("brand_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suggested_clusters" ADD CONSTRAINT "suggested_clusters_collection_collections_collection_code_fk" FOREIGN KEY ("collection") REFERENCES "collections"("collection_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suggested_clusters" ADD CONSTRAINT "suggested_clusters_country_countries_country_code_fk" FOREIGN KEY ("country") REFERENCES "countries"("country_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_grants" ADD CONSTRAINT "user_grants_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_item_idx" ON "audit_log" USING btree ("item_type","item_key");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "cluster_countries_country_idx" ON "cluster_countries" USING btree ("country_code");--> statement-breakpoint
CREATE INDEX "cluster_modules_module_idx" ON "cluster_modules" USING btree ("module_name");--> statement-breakpoint
CREATE INDEX "cluster_stars_zones_zone_idx" ON "cluster_stars_zones" USING btree ("stars_zone");--> statement-breakpoint
CREATE INDEX "cluster_stores_store_idx" ON "cluster_stores" USING btree ("store_jda");--> statement-breakpoint
CREATE UNIQUE INDEX "clusters_id_month_uq" ON "clusters" USING btree ("cluster_id","month_id");--> statement-breakpoint
CREATE INDEX "clusters_month_brand_idx" ON "clusters" USING btree ("month_id","brand_code","collection");--> statement-breakpoint
CREATE INDEX "clusters_label_idx" ON "clusters" USING btree (lower("cluster_label"));--> statement-breakpoint
CREATE INDEX "clusters_status_idx" ON "clusters" USING btree ("status");--> statement-breakpoint
CREATE INDEX "deletion_requests_item_idx" ON "deletion_requests" USING btree ("item_type","item_key");--> statement-breakpoint
CREATE INDEX "export_files_date_idx" ON "export_files" USING btree ("date");--> statement-breakpoint
CREATE INDEX "jobs_status_run_after_idx" ON "jobs" USING btree ("status","run_after");--> statement-breakpoint
CREATE INDEX "jobs_kind_idx" ON "jobs" USING btree ("kind","created_at");--> statement-breakpoint
CREATE INDEX "locks_owner_idx" ON "locks" USING btree (lower("owner"));--> statement-breakpoint
CREATE INDEX "module_skus_upc_idx" ON "module_skus" USING btree ("upc");--> statement-breakpoint
CREATE INDEX "module_stars_zones_zone_idx" ON "module_stars_zones" USING btree ("stars_zone");--> statement-breakpoint
CREATE UNIQUE INDEX "modules_name_month_uq" ON "modules" USING btree ("module_name","month_id");--> statement-breakpoint
CREATE INDEX "modules_month_brand_idx" ON "modules" USING btree ("month_id","brand_code","collection");--> statement-breakpoint
CREATE INDEX "modules_month_family_idx" ON "modules" USING btree ("month_id","macro_family");--> statement-breakpoint
CREATE INDEX "modules_label_idx" ON "modules" USING btree (lower("module_label"));--> statement-breakpoint
CREATE INDEX "modules_status_idx" ON "modules" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "months_year_month_uq" ON "months" USING btree ("year","month");--> statement-breakpoint
CREATE INDEX "months_release_idx" ON "months" USING btree ("release_id");--> statement-breakpoint
CREATE INDEX "sku_month_stats_month_idx" ON "sku_month_stats" USING btree ("month_id");--> statement-breakpoint
CREATE INDEX "skus_brand_collection_idx" ON "skus" USING btree ("brand_code","collection");--> statement-breakpoint
CREATE INDEX "skus_model_idx" ON "skus" USING btree ("model");--> statement-breakpoint
CREATE INDEX "skus_material_idx" ON "skus" USING btree ("material_code");--> statement-breakpoint
CREATE INDEX "stars_customers_country_idx" ON "stars_customers" USING btree ("country_code");--> statement-breakpoint
CREATE INDEX "stores_customer_idx" ON "stores" USING btree ("stars_customer");--> statement-breakpoint
CREATE INDEX "stores_country_idx" ON "stores" USING btree ("country_code");--> statement-breakpoint
CREATE INDEX "suggested_clusters_status_idx" ON "suggested_clusters" USING btree ("status");--> statement-breakpoint
CREATE INDEX "suggested_clusters_country_idx" ON "suggested_clusters" USING btree ("country");--> statement-breakpoint
CREATE INDEX "uploads_insert_time_idx" ON "uploads" USING btree ("insert_time");--> statement-breakpoint
CREATE INDEX "user_grants_code_idx" ON "user_grants" USING btree ("grant_type","grant_code");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_uq" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email"));