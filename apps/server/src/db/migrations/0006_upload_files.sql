CREATE TABLE "upload_files" (
	"upload_id" bigint NOT NULL,
	"field" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "upload_files_upload_id_field_pk" PRIMARY KEY("upload_id","field")
);
--> statement-breakpoint
ALTER TABLE "upload_files" ADD CONSTRAINT "upload_files_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "uploads"("id") ON DELETE cascade ON UPDATE no action;