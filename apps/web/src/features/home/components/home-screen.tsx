import { Button, Group, Stack } from '@mantine/core';
import { IconChevronsRight, IconMenu2 } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { SidebarLayout, useNarrowScreen } from '@/components/layout/sidebar-layout';
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
 * Below 1200 px the filters float over the results once there are results: a search closes them (the
 * 'Open Filter' handle, a burger there, brings them back); before the first search they stay docked.
 */
export function HomeScreen({ classificationPopup }: HomeScreenProps) {
  const stored = useRef(loadHomeState());
  const [selection, setSelection] = useState<HomeSelection>(stored.current?.selection ?? EMPTY_SELECTION);
  const [searched, setSearched] = useState<HomeSelection | null>(stored.current?.searched ?? null);
  const [run, setRun] = useState(0);
  const narrow = useNarrowScreen();
  const [filtersOpen, setFiltersOpen] = useState(!(narrow && stored.current?.searched));
  const [classificationsOpen, setClassificationsOpen] = useState(false);
  const initial = useInitialFilters();

  useEffect(() => saveHomeState({ selection, searched }), [selection, searched]);

  const search = () => {
    if (!canSearch(selection)) return;
    setSearched(selection);
    setRun((n) => n + 1);
    if (narrow) setFiltersOpen(false);
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

  const openFilter = filtersOpen ? null : (
    <Button
      variant="light"
      size="compact-sm"
      leftSection={narrow ? <IconMenu2 size={14} /> : <IconChevronsRight size={14} />}
      onClick={() => setFiltersOpen(true)}
      style={{ flexShrink: 0 }}
      data-testid="open-filter"
    >
      Open Filter
    </Button>
  );
  // With a search, the handle sits in the results header; before one, above the welcome.
  const header = searched ? (
    <Group gap="sm" wrap="nowrap" align="center">
      {openFilter}
      <SearchSummary searched={searched} initial={initial.data} {...(filtersOpen ? {} : { onEdit: () => setFiltersOpen(true) })} />
    </Group>
  ) : null;

  return (
    <SidebarLayout
      hideSidebar={!filtersOpen}
      onHideSidebar={() => setFiltersOpen(false)}
      keepDocked={!searched}
      sidebar={
        <Stack gap={0}>
          <HomeFilters selection={selection} onChange={setSelection} onSearch={search} onClose={() => setFiltersOpen(false)} />
          <SidebarNav selection={selection} onOpenClassifications={() => setClassificationsOpen(true)} />
        </Stack>
      }
    >
      {!searched && openFilter}
      <SearchResults searched={searched} run={run} header={header} />
      {classificationPopup({ opened: classificationsOpen, onClose: () => setClassificationsOpen(false) })}
    </SidebarLayout>
  );
}
