import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { brandSchema, collectionSchema, countrySchema, monthSchema, planningChannelSchema, starsZoneSchema } from '@bo/shared/reference-data';
import { api } from '@/lib/api-client';

const DAY = 24 * 60 * 60 * 1000;
const list = <T,>(path: string, schema: z.ZodType<T>) => () => api.get(path, { schema: z.array(schema), alertOnError: false });

/** The reference lists (months, brands, collections, channels, zones, countries) that pages offer or name, cached for the session: they change with releases only. One query key per list, shared by every page.
 * `enabled: false` (a closed popup) reads only what is already cached: the call waits until it is needed. */
export const useMonths = (enabled = true) => useQuery({ queryKey: ['reference', 'months'], queryFn: list('/month/all', monthSchema), staleTime: DAY, enabled });
export const useBrands = () => useQuery({ queryKey: ['reference', 'brands'], queryFn: list('/brand/all', brandSchema), staleTime: DAY });
export const useCollections = () => useQuery({ queryKey: ['reference', 'collections'], queryFn: list('/collection/all', collectionSchema), staleTime: DAY });
export const usePlanningChannels = () =>
  useQuery({ queryKey: ['reference', 'planningChannels'], queryFn: list('/planningChannel/all', planningChannelSchema), staleTime: DAY });
export const useStarsZones = () => useQuery({ queryKey: ['reference', 'starsZones'], queryFn: list('/starsZone', starsZoneSchema), staleTime: DAY });
export const useCountries = () => useQuery({ queryKey: ['reference', 'countries'], queryFn: list('/country/all', countrySchema), staleTime: DAY });
