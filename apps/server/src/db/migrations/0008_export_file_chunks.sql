CREATE TABLE "export_file_chunks" (
	"export_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "export_file_chunks_export_id_seq_pk" PRIMARY KEY("export_id","seq")
);
--> statement-breakpoint
ALTER TABLE "export_file_chunks" ADD CONSTRAINT "export_file_chunks_export_id_export_files_id_fk" FOREIGN KEY ("export_id") REFERENCES "export_files"("id") ON DELETE cascade ON UPDATE no action;