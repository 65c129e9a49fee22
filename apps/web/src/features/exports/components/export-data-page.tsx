import { useState } from 'react';
import { Stack } from '@mantine/core';
import { MAX_OPEN_CLUSTERS } from '@bo/shared/cluster-editor';
import { EXPORT_SEARCH_TEXTS, type ClusterExportResult } from '@bo/shared/export-search';
import { canExportAny } from '@bo/shared/permissions';
import { SidebarLayout } from '@/components/layout/sidebar-layout';
import { NoAccessPage } from '@/components/ui/no-access-page';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-error';
import { clustersUrl, modulesUrl, openInNewTab } from '@/lib/editor-urls';
import { useSession } from '@/lib/session';
import { useExportSearch } from '../api/search-export-items';
import { exportStatusOf, exportTarget, INITIAL_SELECTION, isModuleResult, toRequest, type ExportResult, type ExportSelection, type SearchedExport } from '../logic/export-search';
import { ExportFilters } from './export-filters';
import { ExportModal } from './export-modal';
import { ExportResults } from './export-results';

/** What the module page loads at once (home's limit for several modules). */
const MAX_OPEN_MODULES = 200;
const NO_RESULTS: ExportResult[] = [];

interface Searched extends SearchedExport {
  body: ReturnType<typeof toRequest>;
}

/**
 * Export Data (/export; part 2 §2, §4 "Export", §5, §8): the sidebar's filters, the results, and the
 * export popup for one item, the selected ones or all (massive variants for several). A finished export
 * keeps the results and the selection (issue 34: a planner exports the same items as XLS, then as PDF).
 */
export function ExportDataPage() {
  const allowed = useSession((s) => canExportAny(s.grants ?? []));
  const [selection, setSelection] = useState<ExportSelection>(INITIAL_SELECTION);
  const [searched, setSearched] = useState<Searched | null>(null);
  const [run, setRun] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [exporting, setExporting] = useState<readonly ExportResult[] | null>(null);
  const search = useExportSearch(searched?.kind ?? 'module', searched?.body ?? null, run);

  if (!allowed) return <NoAccessPage title={paths.export.title} message={EXPORT_SEARCH_TEXTS.noRight} details="Exports need an edit grant on the item's brand and stars zone." testId="export-no-access" />;

  const tooMany = search.error instanceof ApiError && search.error.status === 413;
  const results = search.data ?? NO_RESULTS;

  const change = (next: ExportSelection) => {
    // Another type of results: the list on screen no longer answers the sidebar.
    if (next.kind !== selection.kind) {
      setSearched(null);
      setSelected(new Set());
    }
    setSelection(next);
  };
  const runSearch = () => {
    setSearched({ kind: selection.kind, statuses: [...selection.statuses], customers: [...selection.filters.starsCustomer], body: toRequest(selection) });
    setSelected(new Set());
    setRun((n) => n + 1);
  };
  const open = (items: readonly ExportResult[]) => {
    const modules = items.filter(isModuleResult);
    const clusters = items.filter((r): r is ClusterExportResult => !isModuleResult(r));
    openInNewTab(modules.length ? modulesUrl(modules) : clustersUrl(clusters));
  };
  return (
    // Docked on narrow screens too: one list beside the filters still reads well at 1024 px.
    <SidebarLayout keepDocked sidebar={<ExportFilters selection={selection} onChange={change} onSearch={runSearch} />}>
      <Stack gap="lg">
        <PageHeader title={paths.export.title} description="Search the modules or clusters to export, then export one, the selected ones or all of them as XLS, XLS PHOTO or PDF." />
        <ExportResults
          kind={searched?.kind ?? selection.kind}
          state={{ searched: searched !== null, loading: search.isPending && searched !== null, tooMany, failed: search.isError && !tooMany }}
          results={results}
          selected={selected}
          onSelectedChange={setSelected}
          onExport={setExporting}
          onOpen={open}
          maxOpen={searched?.kind === 'cluster' ? MAX_OPEN_CLUSTERS : MAX_OPEN_MODULES}
        />
      </Stack>
      {searched && (
        <ExportModal
          opened={exporting !== null}
          onClose={() => setExporting(null)}
          status={exportStatusOf(searched)}
          {...exportTarget(searched, exporting ?? [])}
        />
      )}
    </SidebarLayout>
  );
}
