CREATE TABLE "job_steps" (
	"job_id" bigint NOT NULL,
	"step" integer NOT NULL,
	"outcome" jsonb NOT NULL,
	CONSTRAINT "job_steps_job_id_step_pk" PRIMARY KEY("job_id","step")
);
--> statement-breakpoint
ALTER TABLE "job_steps" ADD CONSTRAINT "job_steps_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE cascade ON UPDATE no action;