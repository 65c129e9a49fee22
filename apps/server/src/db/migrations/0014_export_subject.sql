-- What an export holds (issue 34 item 8; docs/exports.md "What the history shows"): the kind of its items (module or
-- cluster), how many, the first few names and the months, recorded by the export call so that the export history and
-- the PDF area tell two exports apart. Exports made before keep nulls (shown as '—').
ALTER TABLE "export_files" ADD COLUMN "item_kind" text;--> statement-breakpoint
ALTER TABLE "export_files" ADD COLUMN "item_count" integer;--> statement-breakpoint
ALTER TABLE "export_files" ADD COLUMN "item_names" jsonb;--> statement-breakpoint
ALTER TABLE "export_files" ADD COLUMN "month_ids" jsonb;
