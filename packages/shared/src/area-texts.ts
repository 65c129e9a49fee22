/** Spec texts the work areas (Pending, Disco/Removed) share, copied once. */
export const AREA_TEXTS = {
  empty: 'No results found, please try another combination of filters.',
} as const;
