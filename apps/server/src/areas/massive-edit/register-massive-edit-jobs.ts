import type { JobRunner } from '../../jobs/job-runner.js';
import { massiveEditJob } from '../../items/lifecycle/change-job.js';
import { classificationEditType, clusterEditType, moduleEditType } from './massive-edit-types.js';

/** Registers the three massive edit job kinds on the runner. */
export function registerMassiveEditJobs(jobs: JobRunner, lockTtlMinutes: number): void {
  jobs.register(moduleEditType.jobKind, massiveEditJob(jobs, moduleEditType, lockTtlMinutes));
  jobs.register(clusterEditType.jobKind, massiveEditJob(jobs, clusterEditType, lockTtlMinutes));
  jobs.register(classificationEditType.jobKind, massiveEditJob(jobs, classificationEditType, lockTtlMinutes));
}
