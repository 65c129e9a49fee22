import { type ReleaseIdBody, type Release, releaseSchema } from '@bo/shared/releases';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { RELEASES_KEY } from './get-releases';

/** POST /release/publishViewer: publish the release to viewers (once). */
export function publishReleaseViewer(body: ReleaseIdBody): Promise<Release> {
  return api.post('/release/publishViewer', body, { schema: releaseSchema });
}

export function usePublishReleaseViewer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishReleaseViewer,
    onSettled: () => queryClient.invalidateQueries({ queryKey: RELEASES_KEY }),
  });
}
