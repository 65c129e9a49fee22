import { Box, Overlay, ScrollArea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { AlertBar } from '@/components/ui/alert-bar';

/**
 * Below this width the sidebar no longer sits beside the results (docs/web-app.md "Narrow screens"):
 * 320 px of filters would leave the three result columns too narrow to read their names.
 */
const SIDEBAR_COLLAPSE_QUERY = '(max-width: 1199.98px)';

/** True below 1200 px: a screen with a sidebar starts it collapsed and opens it over its content. */
export function useNarrowScreen(): boolean {
  return useMediaQuery(SIDEBAR_COLLAPSE_QUERY, false, { getInitialValueInEffect: false }) ?? false;
}

/**
 * A screen with a left sidebar (filters) and a results area on the right, as home and the
 * search areas have (spec part 1 §2 "Home"). On a wide screen the sidebar is docked beside the
 * content; on a narrow one (useNarrowScreen) it floats over the content, which keeps the full width,
 * and a click beside it closes it.
 */
export function SidebarLayout({
  sidebar,
  children,
  hideSidebar = false,
  onHideSidebar,
  keepDocked = false,
}: {
  sidebar: React.ReactNode;
  children: React.ReactNode;
  /** The screen's 'Close Filter' handle hides the sidebar (the screen shows its own 'Open Filter'). */
  hideSidebar?: boolean;
  /** Narrow screens: a click on the content beside the open sidebar asks to hide it. */
  onHideSidebar?: () => void;
  /** Dock the sidebar even on a narrow screen (home before its first search: nothing to cover up for). */
  keepDocked?: boolean;
}) {
  const overlay = useNarrowScreen() && !keepDocked;
  const top = 'var(--app-shell-header-offset, 64px)';
  return (
    <Box style={{ display: 'flex', flex: 1, minHeight: 0 }}>
      {overlay && !hideSidebar && onHideSidebar && (
        <Overlay fixed color="#000" backgroundOpacity={0.25} zIndex={190} onClick={onHideSidebar} data-testid="sidebar-backdrop" style={{ top }} />
      )}
      <Box
        display={hideSidebar ? 'none' : undefined}
        component="aside"
        w={320}
        bg="white"
        style={
          overlay
            ? { position: 'fixed', top, left: 0, bottom: 0, zIndex: 200, boxShadow: 'var(--mantine-shadow-xl)' }
            : { flexShrink: 0, borderRight: '1px solid var(--mantine-color-gray-3)' }
        }
        data-testid="sidebar"
        data-mode={overlay ? 'overlay' : 'docked'}
      >
        <ScrollArea h={`calc(100dvh - ${top})`} type="auto">
          <Box p="lg">{sidebar}</Box>
        </ScrollArea>
      </Box>
      <Box style={{ flex: 1, minWidth: 0 }} p={overlay ? 'lg' : 'xl'}>
        <AlertBar />
        {children}
      </Box>
    </Box>
  );
}
