import { type ReleaseIdBody, type Release, releaseSchema } from '@bo/shared/releases';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { RELEASES_KEY } from './get-releases';

/** POST /release/createNew: a new open release (only while none is open); it opens the next 12 months. */
export function createRelease(body: ReleaseIdBody): Promise<Release> {
  return api.post('/release/createNew', body, { schema: releaseSchema, alertOnError: false });
}

export function useCreateRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRelease,
    // Months open and close with their release: month lists elsewhere are stale too.
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: RELEASES_KEY }), queryClient.invalidateQueries({ queryKey: ['months'] })]),
  });
}
