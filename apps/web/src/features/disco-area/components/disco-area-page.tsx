import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { DISCO_TEXTS, type DiscoFilters as Filters, type DiscoRow, type DiscoView, type ReplacementUsage } from '@bo/shared/disco-area';
import { canUseDiscoArea } from '@bo/shared/permissions';
import { SidebarLayout } from '@/components/layout/sidebar-layout';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { NoAccessPage } from '@/components/ui/no-access-page';
import { PageHeader } from '@/components/ui/page-header';
import { useAreaSearch } from '@/components/ui/use-area-search';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-error';
import { moduleUrl, openInNewTab } from '@/lib/editor-urls';
import { forceUnlockModule } from '@/lib/forced-unlock-calls';
import { lockModules } from '@/lib/module-calls';
import { useSession } from '@/lib/session';
import { useDiscoFilters } from '../api/get-disco-filters';
import { DISCO_SEARCH_KEY, useDiscoSearch } from '../api/search-disco';
import { pageCount } from '@/components/ui/page-jump';
import { EMPTY_FILTERS, removalRows, replacementRows, rowKey, toDiscoRequest } from '../logic/disco-rows';
import { storeForMassiveEdit } from '../logic/hand-off';
import { DiscoFilters } from './disco-filters';
import { DiscoResults, type DiscoResultsState } from './disco-results';
import { ReplacementModal } from './replacement-modal';

/** Part 2 §8: on the disco pages a 401 logs out (the api client does it); 201, 403, 404 and no answer open the error popup. */
function showError(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) return;
  showMessagePopup('Error', error instanceof Error && error.message ? error.message : 'An error occurred!');
}

/**
 * The Discontinuation / Removed Area (/disco-remove-area; part 2 §2, §4, §5, §8, §9; docs/disco-area.md):
 * the caller's discontinued or removed SKUs still in modules of open months, by view, filters and server
 * pages. Every row of a page starts checked the first time the page is shown; the checks are kept per row
 * across pages until the next search; GO TO MASSIVE EDIT hands the checked rows to /massive-edit-wi as rows
 * that remove them. A discontinued row's Replace opens the guided replacement.
 */
export function DiscoAreaPage() {
  const allowed = useSession((s) => canUseDiscoArea(s.grants ?? []));
  const me = useSession((s) => s.user?.username ?? '');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  /** The checked rows (by key), and the pages whose rows were checked on first sight: a new search or view clears them. */
  const [checked, setChecked] = useState<Map<string, DiscoRow>>(new Map());
  const [seenPages, setSeenPages] = useState<Set<number>>(new Set());
  const { view, filters, searched, pageIndex, setPageIndex, run, sidebar } = useAreaSearch<DiscoView, Filters>('disco', EMPTY_FILTERS, () => {
    setChecked(new Map());
    setSeenPages(new Set());
  });
  const [replacing, setReplacing] = useState<DiscoRow | null>(null);
  const options = useDiscoFilters(view, filters, allowed);
  const search = useDiscoSearch(view, searched && toDiscoRequest(searched, pageIndex), run);
  const page = search.data;

  useEffect(() => {
    if (options.error) showError(options.error);
  }, [options.error]);
  useEffect(() => {
    if (search.error) showError(search.error);
  }, [search.error]);
  // A page seen for the first time: all its rows start checked (part 2 §4).
  useEffect(() => {
    if (!page || search.isPlaceholderData || seenPages.has(pageIndex)) return;
    setSeenPages((s) => new Set(s).add(pageIndex));
    setChecked((c) => {
      const next = new Map(c);
      for (const row of page.skuDiscoTypeDtoList) next.set(rowKey(row), row);
      return next;
    });
  }, [page, search.isPlaceholderData, pageIndex, seenPages]);

  if (!allowed) {
    return <NoAccessPage title={paths.discoRemoveArea.title} message={DISCO_TEXTS.noAccessTitle} details={DISCO_TEXTS.noRight} testId="disco-no-access" />;
  }

  const check = (rows: readonly DiscoRow[], on: boolean) =>
    setChecked((c) => {
      const next = new Map(c);
      for (const row of rows) {
        if (on) next.set(rowKey(row), row);
        else next.delete(rowKey(row));
      }
      return next;
    });
  const goToMassiveEdit = () => {
    storeForMassiveEdit(removalRows([...checked.values()]));
    navigate(paths.massiveEdit.path);
  };
  const openModule = (row: DiscoRow) => {
    // The module page takes (or renews) the lock itself; taking it here marks the row locked at once (part 2 §4).
    lockModules([{ moduleName: row.moduleName, monthId: row.monthId }]).then(
      () => void queryClient.invalidateQueries({ queryKey: DISCO_SEARCH_KEY }),
      showError,
    );
    openInNewTab(moduleUrl(row));
  };
  const unlockModule = async (row: DiscoRow) => {
    try {
      const yes = await confirmDialog({
        title: DISCO_TEXTS.unlockQuestion,
        message: DISCO_TEXTS.editing(row.userLock ?? ''),
        confirmLabel: 'Yes',
        cancelLabel: 'No',
        confirmColor: 'red',
        action: () => forceUnlockModule({ moduleName: row.moduleName, monthId: row.monthId }),
      });
      if (yes) {
        flash('The module has been unlocked');
        await queryClient.invalidateQueries({ queryKey: DISCO_SEARCH_KEY });
      }
    } catch (error) {
      showError(error);
    }
  };
  const replace = (newUpc: string, usages: ReplacementUsage[]) => {
    if (!replacing) return;
    storeForMassiveEdit(replacementRows(replacing.upc, newUpc, usages));
    setReplacing(null);
    navigate(paths.massiveEdit.path);
  };

  const state: DiscoResultsState = searched === null ? 'idle' : search.isError && !page ? 'failed' : search.isPending ? 'loading' : 'done';

  return (
    <SidebarLayout
      keepDocked
      sidebar={
        <DiscoFilters {...sidebar(options)} checkedCount={checked.size} onMassiveEdit={goToMassiveEdit} />
      }
    >
      <Stack gap="lg">
        <PageHeader
          title={view === 'disco' ? DISCO_TEXTS.discoArea : DISCO_TEXTS.removedArea}
          description={
            view === 'disco'
              ? 'SKUs discontinued (flagged, GED expired or disabled in SAP) that still sit in modules of open months.'
              : 'SKUs removed from the range that still sit in modules of open months.'
          }
        />
        <DiscoResults
          view={view}
          state={state}
          rows={page?.skuDiscoTypeDtoList ?? []}
          count={page?.count ?? 0}
          pageSize={page?.maxResultsForPage ?? 0}
          page={pageIndex + 1}
          pages={pageCount(page?.count ?? 0, page?.maxResultsForPage ?? 1)}
          isChecked={(row) => checked.has(rowKey(row))}
          me={me}
          onCheck={check}
          onPage={(n) => setPageIndex(n - 1)}
          onOpenModule={openModule}
          onUnlockModule={(row) => void unlockModule(row)}
          onReplace={setReplacing}
        />
      </Stack>
      <ReplacementModal row={replacing} onClose={() => setReplacing(null)} onReplace={replace} />
    </SidebarLayout>
  );
}
