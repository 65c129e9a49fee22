import { type ReleaseIdBody, type Release, releaseSchema } from '@bo/shared/releases';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { RELEASES_KEY } from './get-releases';

/** POST /release/publish: publish the release to the front office (once). */
export function publishRelease(body: ReleaseIdBody): Promise<Release> {
  return api.post('/release/publish', body, { schema: releaseSchema });
}

export function usePublishRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishRelease,
    onSettled: () => queryClient.invalidateQueries({ queryKey: RELEASES_KEY }),
  });
}
