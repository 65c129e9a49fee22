import { type ClassificationMassiveEditRowInput, massiveEditResultSchema, massiveEditAnswerSchema } from '@bo/shared/massive-edit';
import { api } from '@/lib/api-client';

const PATH = '/cluster/massiveEdit/classification';

/** POST /cluster/massiveEdit/classification with dryRun (no publish: part 2 §2). */
export const previewClassificationMassiveEdit = (rowsClusterClassificationMassiveEdit: ClassificationMassiveEditRowInput[]) =>
  api.post(PATH, { rowsClusterClassificationMassiveEdit, dryRun: true }, { schema: massiveEditResultSchema, alertOnError: false });

/** POST /cluster/massiveEdit/classification: the job to poll, or the refusal of every item (no job). */
export const startClassificationMassiveEdit = (rowsClusterClassificationMassiveEdit: ClassificationMassiveEditRowInput[]) =>
  api.post(PATH, { rowsClusterClassificationMassiveEdit }, { schema: massiveEditAnswerSchema, alertOnError: false });
