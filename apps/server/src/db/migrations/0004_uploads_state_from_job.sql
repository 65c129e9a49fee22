ALTER TABLE "uploads" ALTER COLUMN "job_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "uploads_user_idx" ON "uploads" USING btree (lower("user_id"));--> statement-breakpoint
CREATE INDEX "uploads_job_idx" ON "uploads" USING btree ("job_id");--> statement-breakpoint
ALTER TABLE "uploads" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "uploads" DROP COLUMN "progress";--> statement-breakpoint
ALTER TABLE "uploads" DROP COLUMN "response";