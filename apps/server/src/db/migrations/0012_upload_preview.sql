-- Import Module / Import Cluster preview (docs/IMPORT-PREVIEW.md): the preview job of an upload sent with ?preview=true, and
-- the decision taken on it (null while it waits, APPLIED or CANCELLED). Uploads sent without a preview keep both null.
ALTER TABLE "uploads" ADD COLUMN "preview_job_id" bigint;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_preview_job_id_jobs_id_fk" FOREIGN KEY ("preview_job_id") REFERENCES "jobs"("id") ON DELETE no action ON UPDATE no action;