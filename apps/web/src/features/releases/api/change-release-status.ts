import { type ChangeReleaseStatus, type Release, releaseSchema } from '@bo/shared/releases';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { RELEASES_KEY } from './get-releases';

/** POST /release/changeStatus: close ('close') or re-open ('re-open') a release with its months. */
export function changeReleaseStatus(body: ChangeReleaseStatus): Promise<Release> {
  return api.post('/release/changeStatus', body, { schema: releaseSchema });
}

export function useChangeReleaseStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeReleaseStatus,
    // Months open and close with their release: month lists elsewhere are stale too.
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: RELEASES_KEY }), queryClient.invalidateQueries({ queryKey: ['months'] })]),
  });
}
