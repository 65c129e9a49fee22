import { type Release, releaseSchema } from '@bo/shared/releases';
import { type UploadAccepted, uploadAcceptedSchema, uploadItemSchema } from '@bo/shared/uploads';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { saveFile } from '@/lib/download';
import { acceptedInto, type UploadsView } from '../logic/upload-file';
import {
  dispositionFileName,
  OPTIONAL_RELEASE_FILE_FIELDS,
  RELEASE_FILE_FIELDS,
  type ReleaseFileField,
  type ReleaseUploadType,
  sortByReleaseId,
  type TemplateFormat,
} from '../logic/release-files';
import { UPLOADS_KEY } from './get-uploads';

/**
 * The releases Upload Files offers: the list Manage Releases reads (GET /release/all), sorted by
 * releaseId. Its own key, so this feature does not lean on features/releases.
 */
export function getUploadReleases(): Promise<Release[]> {
  return api.get('/release/all', { schema: z.array(releaseSchema) }).then(sortByReleaseId);
}

export function uploadReleasesQueryOptions() {
  return queryOptions({ queryKey: ['upload-files', 'releases'] as const, queryFn: getUploadReleases });
}

export function useUploadReleases() {
  return useQuery(uploadReleasesQueryOptions());
}

export interface ReleaseFilesRequest {
  releaseId: string;
  type: ReleaseUploadType;
  /** The four required files, and Reference Data when chosen. */
  files: Partial<Record<ReleaseFileField, File | null>>;
}

/**
 * POST /data/fileLoader/import: multipart with the files module, cluster, registry, segment (and reference
 * when chosen) and the fields releaseId, type, preview=true (part 2 §3, §7; issue 33: the page always looks
 * before it loads). The page shows every failure in its Error popup.
 */
export function uploadReleaseFiles({ releaseId, type, files }: ReleaseFilesRequest): Promise<UploadAccepted> {
  const form = new FormData();
  form.append('releaseId', releaseId);
  form.append('type', type);
  form.append('preview', 'true');
  for (const field of [...RELEASE_FILE_FIELDS, ...OPTIONAL_RELEASE_FILE_FIELDS]) {
    const file = files[field];
    if (file) form.append(field, file, file.name);
  }
  return api.post('/fileLoader/import', form, { prefix: '/data', schema: uploadAcceptedSchema, alertOnError: false });
}

/** POST /data/fileLoader/:uploadId/apply: loads the preview's stored files for real. */
export function applyReleasePreview(uploadId: number): Promise<UploadAccepted> {
  return api.post(`/fileLoader/${uploadId}/apply`, undefined, { prefix: '/data', schema: uploadAcceptedSchema, alertOnError: false });
}

/** POST /api/upload/:uploadId/cancel: drops the preview (nothing was loaded). */
export function cancelReleasePreview(uploadId: number) {
  return api.post(`/upload/${uploadId}/cancel`, undefined, { schema: uploadItemSchema, alertOnError: false });
}

/** Apply or Cancel, then the upload list is read again. */
export function useDecideReleasePreview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uploadId, decision }: { uploadId: number; decision: 'apply' | 'cancel' }) =>
      decision === 'apply' ? applyReleasePreview(uploadId).then(() => undefined) : cancelReleasePreview(uploadId).then(() => undefined),
    onSettled: () => queryClient.invalidateQueries({ queryKey: UPLOADS_KEY, exact: true }),
  });
}

/** Sends the four files; once accepted the upload goes on top of the list (WIP) and the list is read again. */
export function useUploadReleaseFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadReleaseFiles,
    onSuccess: async ({ upload }) => {
      await queryClient.cancelQueries({ queryKey: UPLOADS_KEY, exact: true });
      queryClient.setQueryData<UploadsView>(UPLOADS_KEY, (snapshot) => acceptedInto(snapshot, upload));
      await queryClient.invalidateQueries({ queryKey: UPLOADS_KEY, exact: true });
    },
  });
}

/** GET /data/fileLoader/template/:file?format=: the header-only template of one file. */
export async function downloadTemplate(field: ReleaseFileField, format: TemplateFormat): Promise<void> {
  const answer = await api.get<Response>(`/fileLoader/template/${field}`, { prefix: '/data', query: { format }, responseType: 'response' });
  saveFile(await answer.blob(), dispositionFileName(answer.headers.get('content-disposition'), `${field}-template.${format}`));
}

/** GET /data/fileLoader/release/:releaseId/:file: one of the five files of a release. */
export async function downloadReleaseFile(releaseId: string, field: ReleaseFileField): Promise<void> {
  const answer = await api.get<Response>(`/fileLoader/release/${encodeURIComponent(releaseId)}/${field}`, { prefix: '/data', responseType: 'response' });
  saveFile(await answer.blob(), dispositionFileName(answer.headers.get('content-disposition'), `${releaseId}-${field}.csv`));
}
