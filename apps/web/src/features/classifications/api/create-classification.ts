import { classificationSchema } from '@bo/shared/classifications';
import { api } from '@/lib/api-client';

/** POST /classification/create?classificationLabel= */
export const createClassification = (classificationLabel: string) =>
  api.post('/classification/create', undefined, { query: { classificationLabel }, schema: classificationSchema, alertOnError: false });
