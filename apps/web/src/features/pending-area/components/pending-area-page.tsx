import { Stack } from '@mantine/core';
import { PENDING_TEXTS, type PendingAreaFilters, type PendingView } from '@bo/shared/pending-area';
import { canExportAny } from '@bo/shared/permissions';
import { SidebarLayout } from '@/components/layout/sidebar-layout';
import { NoAccessPage } from '@/components/ui/no-access-page';
import { PageHeader } from '@/components/ui/page-header';
import { useAreaSearch } from '@/components/ui/use-area-search';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-error';
import { openInNewTab } from '@/lib/editor-urls';
import { useSession } from '@/lib/session';
import { usePendingFilters } from '../api/get-pending-filters';
import { usePendingSearch } from '../api/search-pending-items';
import { pageCount } from '@/components/ui/page-jump';
import { EMPTY_FILTERS, toPendingRequest } from '../logic/pending-rows';
import { PendingFilters } from './pending-filters';
import { PendingResults, type PendingResultsState } from './pending-results';

const isStatus = (error: unknown, status: number) => error instanceof ApiError && error.status === status;

/**
 * The Pending Area (/pending-area; part 2 §2, §5, §6, §8; docs/pending-area.md): the caller's items
 * waiting for work — sent back by the planning system, or stuck in submission — by view, four filters
 * and server pages. Toggling the view resets filters and results; a 403 from the server (or no edit
 * grant at all, which the server would refuse) shows that access is missing.
 */
export function PendingAreaPage() {
  const allowed = useSession((s) => canExportAny(s.grants ?? []));
  const { view, searched, pageIndex, setPageIndex, run, sidebar } = useAreaSearch<PendingView, PendingAreaFilters>('module', EMPTY_FILTERS);
  const options = usePendingFilters(view, allowed);
  const search = usePendingSearch(view, searched && toPendingRequest(searched, pageIndex), run);

  if (!allowed || isStatus(options.error, 403) || isStatus(search.error, 403)) {
    return <NoAccessPage title={paths.pendingArea.title} message={PENDING_TEXTS.noAccessTitle} details={PENDING_TEXTS.noRight} testId="pending-no-access" />;
  }

  const state: PendingResultsState =
    searched === null ? 'idle' : isStatus(search.error, 413) ? 'tooMany' : search.isError ? 'failed' : search.isPending ? 'loading' : 'done';
  const page = search.data;

  return (
    <SidebarLayout
      keepDocked
      sidebar={
        <PendingFilters {...sidebar(options)} />
      }
    >
      <Stack gap="lg">
        <PageHeader title={paths.pendingArea.title} description="Your modules and clusters waiting for work: saved and not published yet (some sent back by the planning system with warnings), or stuck in submission." />
        <PendingResults
          view={view}
          state={state}
          items={page?.items ?? []}
          count={page?.count ?? 0}
          page={pageIndex + 1}
          pages={pageCount(page?.count ?? 0, page?.pageSize ?? 1)}
          onPage={(n) => setPageIndex(n - 1)}
          onOpen={(item) => openInNewTab(item.url)}
        />
      </Stack>
    </SidebarLayout>
  );
}
