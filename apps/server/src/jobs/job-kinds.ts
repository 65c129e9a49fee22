/**
 * The kinds of background job (jobs.kind) that more than one area names: the job's own file runs it, the
 * live events word its end (areas/live/job-notices.ts). Here, on the ground floor, so no area imports another's job file for a name.
 */
export const EXPORT_JOB = 'export';
export const FILE_LOADER_JOB = 'upload-file-loader';
export const MODULE_IMPORT_JOB = 'upload-module';
export const CLUSTER_IMPORT_JOB = 'upload-cluster';
export const MASSIVE_EDIT_JOBS = {
  module: 'massive-edit-module',
  cluster: 'massive-edit-cluster',
  classification: 'massive-edit-classification',
} as const;
