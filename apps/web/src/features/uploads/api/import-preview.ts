import { type UploadAccepted, uploadAcceptedSchema, type UploadItem, uploadItemSchema, type UploadPreview, uploadPreviewSchema } from '@bo/shared/uploads';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { UPLOADS_KEY } from './get-uploads';

/** How often the page asks for a preview that is still being computed. */
export const PREVIEW_POLL_MS = 1000;

const previewKey = (uploadId: number) => ['uploads', 'preview', uploadId] as const;

/** GET /upload/:uploadId/preview (docs/IMPORT-PREVIEW.md): the upload and its preview, null while it is computed. */
export function getImportPreview(uploadId: number): Promise<UploadPreview> {
  return api.get(`/upload/${uploadId}/preview`, { schema: uploadPreviewSchema, alertOnError: false });
}

/** The preview of an upload, read again every second while it is computed (status WIP). */
export function useImportPreview(uploadId: number | null) {
  return useQuery({
    queryKey: previewKey(uploadId ?? 0),
    queryFn: () => getImportPreview(uploadId!),
    enabled: uploadId !== null,
    refetchInterval: (query) => (query.state.data?.upload.status === 'WIP' ? PREVIEW_POLL_MS : false),
  });
}

/** POST /upload/:uploadId/apply { overwrite }: the import of the previewed file starts; the list is read again. */
export function useApplyUpload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uploadId, overwrite }: { uploadId: number; overwrite: string[] }): Promise<UploadAccepted> =>
      api.post(`/upload/${uploadId}/apply`, { overwrite }, { schema: uploadAcceptedSchema, alertOnError: false }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: UPLOADS_KEY }),
  });
}

/** POST /upload/:uploadId/cancel: the preview is dropped; the list is read again. */
export function useCancelUpload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uploadId: number): Promise<UploadItem> => api.post(`/upload/${uploadId}/cancel`, {}, { schema: uploadItemSchema, alertOnError: false }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: UPLOADS_KEY }),
  });
}
