import { api } from '@/lib/api-client';

/** DELETE /classification/delete?classificationId= */
export const deleteClassification = (classificationId: number) =>
  api.delete('/classification/delete', undefined, { query: { classificationId }, alertOnError: false });
