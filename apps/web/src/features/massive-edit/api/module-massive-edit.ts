import { massiveEditResultSchema, massiveEditAnswerSchema, type ModuleMassiveEditRowInput } from '@bo/shared/massive-edit';
import { api } from '@/lib/api-client';

const PATH = '/module/massiveEdit/';

/** POST /module/massiveEdit/ with dryRun: what Save would do, nothing written. */
export const previewModuleMassiveEdit = (massiveEditList: ModuleMassiveEditRowInput[], toPublish: boolean) =>
  api.post(PATH, { massiveEditList, toPublish, dryRun: true }, { schema: massiveEditResultSchema, alertOnError: false });

/** POST /module/massiveEdit/: the job to poll, or the refusal of every item (no job). */
export const startModuleMassiveEdit = (massiveEditList: ModuleMassiveEditRowInput[], toPublish: boolean) =>
  api.post(PATH, { massiveEditList, toPublish }, { schema: massiveEditAnswerSchema, alertOnError: false });
