import { massiveEditResultSchema, massiveEditAnswerSchema, type ModuleMassiveEditRowInput } from '@bo/shared/massive-edit';
import { api } from '@/lib/api-client';

const PATH = '/module/massiveEdit/selected';

/** POST /module/massiveEdit/selected (admins) with dryRun: what Save would do, nothing written. */
export const previewSelectedModuleMassiveEdit = (massiveEditList: ModuleMassiveEditRowInput[], toPublish: boolean) =>
  api.post(PATH, { massiveEditList, toPublish, dryRun: true }, { schema: massiveEditResultSchema, alertOnError: false });

/** POST /module/massiveEdit/selected (admins): the job to poll, or the refusal of every item (no job). */
export const startSelectedModuleMassiveEdit = (massiveEditList: ModuleMassiveEditRowInput[], toPublish: boolean) =>
  api.post(PATH, { massiveEditList, toPublish }, { schema: massiveEditAnswerSchema, alertOnError: false });
