import { type UploadItem, uploadListSchema, type UploadState, uploadStateSchema } from '@bo/shared/uploads';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { UploadsView } from '../logic/upload-file';

export const UPLOADS_KEY = ['uploads'] as const;

/** The list and the state are read again every 5 seconds (part 2 §9). */
export const UPLOADS_REFRESH_MS = 5000;

/**
 * GET /uploadStatus/: the uploads the caller may see, newest first. Polled: a failure shows on the
 * page, not in the alert bar every 5 seconds (a 401 still ends the session).
 */
export function getUploads(): Promise<UploadItem[]> {
  return api.get('/uploadStatus/', { schema: uploadListSchema, alertOnError: false });
}

/** GET /uploadStatus/getUploadStatus: whether the caller has an upload in progress. */
export function getUploadState(): Promise<UploadState> {
  return api.get('/uploadStatus/getUploadStatus', { schema: uploadStateSchema, alertOnError: false });
}

/** Both at once, so the table and the areas never tell two stories. */
export async function getUploadsView(): Promise<UploadsView> {
  const [list, state] = await Promise.all([getUploads(), getUploadState()]);
  return { list, state };
}

export function uploadsQueryOptions() {
  return queryOptions({ queryKey: UPLOADS_KEY, queryFn: getUploadsView, refetchInterval: UPLOADS_REFRESH_MS });
}

/** The upload list and the caller's state, refreshed every 5 seconds. */
export function useUploads() {
  return useQuery(uploadsQueryOptions());
}
