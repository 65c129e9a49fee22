import { type BrandWithUsers, brandWithUsersSchema } from '@bo/shared/brands';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** Every query of Manage Brands starts with this key. */
export const BRANDS_KEY = ['brands'] as const;

/** GET /brand/allBrandsWithUsers: the brands sorted by brand, with who holds each at view, edit and submit. */
export function getBrandsWithUsers(): Promise<BrandWithUsers[]> {
  return api.get('/brand/allBrandsWithUsers', { schema: z.array(brandWithUsersSchema) });
}

export function brandsWithUsersQueryOptions() {
  return queryOptions({ queryKey: [...BRANDS_KEY, 'with-users'], queryFn: getBrandsWithUsers });
}

export function useBrandsWithUsers() {
  return useQuery(brandsWithUsersQueryOptions());
}
