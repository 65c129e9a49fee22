import { type Release, releaseSchema } from '@bo/shared/releases';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

export const RELEASES_KEY = ['releases'] as const;

/** GET /release/all: the releases sorted by releaseId, each with its months. */
export function getReleases(): Promise<Release[]> {
  return api.get('/release/all', { schema: z.array(releaseSchema) });
}

export function releasesQueryOptions() {
  return queryOptions({ queryKey: [...RELEASES_KEY, 'all'], queryFn: getReleases });
}

export function useReleases() {
  return useQuery(releasesQueryOptions());
}
