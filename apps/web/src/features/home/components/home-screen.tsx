import { Button, Stack } from '@mantine/core';
import { IconChevronsRight } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { SidebarLayout } from '@/components/layout/sidebar-layout';
import { useInitialFilters } from '../api/get-initial-filters';
import { canSearch, EMPTY_SELECTION, loadHomeState, saveHomeState, type HomeSelection } from '../logic/home-selection';
import { HomeFilters } from './home-filters';
import { SearchResults } from './search-results';
import { SearchSummary } from './search-summary';
import { SidebarNav } from './sidebar-nav';

export interface HomeScreenProps {
  /** The client classification popup (another feature: the route composes it). */
  classificationPopup: (props: { opened: boolean; onClose: () => void }) => React.ReactNode;
}

/**
 * Enter searches from the filters (or with nothing focused); elsewhere — a dialog, a dropdown, a column's
 * own filter, a button — the key belongs to what has the focus.
 */
function isSearchEnter(event: KeyboardEvent): boolean {
  if (event.key !== 'Enter' || event.defaultPrevented || event.isComposing) return false;
  const target = event.target as HTMLElement | null;
  if (!target || target === document.body) return true;
  if (target.closest('[role="dialog"], textarea, button, a, .mantine-Combobox-dropdown')) return false;
  return !!target.closest('[data-testid="sidebar"]');
}

/**
 * Home (part 1 §2): filters on the left, three result columns on the right. The search survives a visit
 * to another screen of the same tab (sessionStorage), so coming back from an editor shows it again.
 */
export function HomeScreen({ classificationPopup }: HomeScreenProps) {
  const stored = useRef(loadHomeState());
  const [selection, setSelection] = useState<HomeSelection>(stored.current?.selection ?? EMPTY_SELECTION);
  const [searched, setSearched] = useState<HomeSelection | null>(stored.current?.searched ?? null);
  const [run, setRun] = useState(0);
  const [filtersOpen, setFiltersOpen] = useState(true);
  const [classificationsOpen, setClassificationsOpen] = useState(false);
  const initial = useInitialFilters();

  useEffect(() => saveHomeState({ selection, searched }), [selection, searched]);

  const search = () => {
    if (!canSearch(selection)) return;
    setSearched(selection);
    setRun((n) => n + 1);
  };
  const searchRef = useRef(search);
  searchRef.current = search;

  // Enter runs the search (part 1 §2), unless a dialog, a dropdown or a text area owns the key.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isSearchEnter(event)) searchRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const header = searched ? (
    <SearchSummary searched={searched} initial={initial.data} {...(filtersOpen ? {} : { onEdit: () => setFiltersOpen(true) })} />
  ) : null;

  return (
    <SidebarLayout
      hideSidebar={!filtersOpen}
      sidebar={
        <Stack gap={0}>
          <HomeFilters selection={selection} onChange={setSelection} onSearch={search} onClose={() => setFiltersOpen(false)} />
          <SidebarNav selection={selection} onOpenClassifications={() => setClassificationsOpen(true)} />
        </Stack>
      }
    >
      {!filtersOpen && (
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<IconChevronsRight size={14} />}
          onClick={() => setFiltersOpen(true)}
          mb="sm"
          data-testid="open-filter"
        >
          Open Filter
        </Button>
      )}
      <SearchResults searched={searched} run={run} header={header} />
      {classificationPopup({ opened: classificationsOpen, onClose: () => setClassificationsOpen(false) })}
    </SidebarLayout>
  );
}
