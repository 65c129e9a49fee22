import { type ClusterMassiveEditRowInput, massiveEditResultSchema, massiveEditAnswerSchema } from '@bo/shared/massive-edit';
import { api } from '@/lib/api-client';

const PATH = '/cluster/massiveEdit/';

/** POST /cluster/massiveEdit/ with dryRun: what Save would do, nothing written. */
export const previewClusterMassiveEdit = (rowsClusterMassiveEdit: ClusterMassiveEditRowInput[], toPublish: boolean) =>
  api.post(PATH, { rowsClusterMassiveEdit, toPublish, dryRun: true }, { schema: massiveEditResultSchema, alertOnError: false });

/** POST /cluster/massiveEdit/: the job to poll, or the refusal of every item (no job). */
export const startClusterMassiveEdit = (rowsClusterMassiveEdit: ClusterMassiveEditRowInput[], toPublish: boolean) =>
  api.post(PATH, { rowsClusterMassiveEdit, toPublish }, { schema: massiveEditAnswerSchema, alertOnError: false });
