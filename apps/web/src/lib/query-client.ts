import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error';

/** Client errors (4xx) will not change on a retry; network failures and 5xx get one more try. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      // Planners work with locks and long edits: refetching behind their back on focus is noise.
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});
