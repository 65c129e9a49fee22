CREATE TABLE "upload_file_chunks" (
	"upload_id" bigint NOT NULL,
	"field" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "upload_file_chunks_upload_id_field_seq_pk" PRIMARY KEY("upload_id","field","seq")
);
--> statement-breakpoint
ALTER TABLE "upload_file_chunks" ADD CONSTRAINT "upload_file_chunks_upload_id_field_upload_files_upload_id_field_fk" FOREIGN KEY ("upload_id","field") REFERENCES "upload_files"("upload_id","field") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_files" DROP COLUMN "content";