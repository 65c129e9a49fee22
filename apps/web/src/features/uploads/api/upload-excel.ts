import { type UploadAccepted, uploadAcceptedSchema } from '@bo/shared/uploads';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { acceptedInto, type UploadsView } from '../logic/upload-file';
import { UPLOADS_KEY } from './get-uploads';

/** The two import areas of the page and the route each posts to. */
export type ImportKind = 'module' | 'cluster';

/** The form field the server reads the workbook from (part 2 §3 "Form field name: excelFile"). */
export const EXCEL_FIELD = 'excelFile';

/**
 * POST /upload/module?preview=true or /upload/cluster?preview=true: the workbook as multipart form data;
 * the server computes what the import would do and waits for Apply or Cancel (docs/IMPORT-PREVIEW.md).
 * The page shows every failure in its Error popup, so the alert bar stays quiet.
 */
export function uploadExcel(kind: ImportKind, file: File): Promise<UploadAccepted> {
  const form = new FormData();
  form.append(EXCEL_FIELD, file, file.name);
  return api.post(`/upload/${kind}`, form, { query: { preview: true }, schema: uploadAcceptedSchema, alertOnError: false });
}

/**
 * Sends a workbook; once accepted, the page shows the new upload at once (WIP, areas disabled) and
 * reads the list and the state again (part 2 §4 "After a successful post … the list reloaded").
 */
export function useUploadExcel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImportKind; file: File }) => uploadExcel(kind, file),
    onSuccess: async ({ upload }) => {
      await queryClient.cancelQueries({ queryKey: UPLOADS_KEY });
      queryClient.setQueryData<UploadsView>(UPLOADS_KEY, (snapshot) => acceptedInto(snapshot, upload));
      await queryClient.invalidateQueries({ queryKey: UPLOADS_KEY });
    },
  });
}
