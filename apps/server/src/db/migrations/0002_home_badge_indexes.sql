CREATE INDEX "clusters_pending_idx" ON "clusters" USING btree ("month_id") WHERE "clusters"."rpas_errors" IS NOT NULL AND "clusters"."deletion_status" IS NULL;--> statement-breakpoint
CREATE INDEX "modules_pending_idx" ON "modules" USING btree ("month_id") WHERE "modules"."rpas_errors" IS NOT NULL AND "modules"."deletion_status" IS NULL;--> statement-breakpoint
CREATE INDEX "skus_disco_idx" ON "skus" USING btree ("brand_code") WHERE "skus"."flag_disco";--> statement-breakpoint
CREATE INDEX "skus_deleted_idx" ON "skus" USING btree ("brand_code") WHERE "skus"."deleted";