import { type Release, releaseSchema } from '@bo/shared/releases';
import { type UploadAccepted, uploadAcceptedSchema } from '@bo/shared/uploads';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { saveFile } from '@/lib/download';
import { acceptedInto, type UploadsView } from '../logic/upload-file';
import { dispositionFileName, RELEASE_FILE_FIELDS, type ReleaseFileField, type ReleaseUploadType, sortByReleaseId, type TemplateFormat } from '../logic/release-files';
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
  files: Record<ReleaseFileField, File>;
}

/**
 * POST /data/fileLoader/import: multipart with the files module, cluster, registry, segment and the
 * fields releaseId, type (part 2 §3, §7). The page shows every failure in its Error popup.
 */
export function uploadReleaseFiles({ releaseId, type, files }: ReleaseFilesRequest): Promise<UploadAccepted> {
  const form = new FormData();
  form.append('releaseId', releaseId);
  form.append('type', type);
  for (const field of RELEASE_FILE_FIELDS) form.append(field, files[field], files[field].name);
  return api.post('/fileLoader/import', form, { prefix: '/data', schema: uploadAcceptedSchema, alertOnError: false });
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

/** GET /data/fileLoader/release/:releaseId/:file: one of the four files of a release. */
export async function downloadReleaseFile(releaseId: string, field: ReleaseFileField): Promise<void> {
  const answer = await api.get<Response>(`/fileLoader/release/${encodeURIComponent(releaseId)}/${field}`, { prefix: '/data', responseType: 'response' });
  saveFile(await answer.blob(), dispositionFileName(answer.headers.get('content-disposition'), `${releaseId}-${field}.csv`));
}
