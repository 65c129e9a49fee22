import { Box, ScrollArea } from '@mantine/core';
import { AlertBar } from '@/components/ui/alert-bar';

/**
 * A screen with a left sidebar (filters) and a results area on the right, as home and the
 * search areas have (spec part 1 §2 "Home").
 */
export function SidebarLayout({
  sidebar,
  children,
  hideSidebar = false,
}: {
  sidebar: React.ReactNode;
  children: React.ReactNode;
  /** The screen's 'Close Filter' handle hides the sidebar (the screen shows its own 'Open Filter'). */
  hideSidebar?: boolean;
}) {
  return (
    <Box style={{ display: 'flex', flex: 1, minHeight: 0 }}>
      <Box
        display={hideSidebar ? 'none' : undefined}
        component="aside"
        w={320}
        bg="white"
        style={{ flexShrink: 0, borderRight: '1px solid var(--mantine-color-gray-3)' }}
        data-testid="sidebar"
      >
        <ScrollArea h="calc(100dvh - var(--app-shell-header-offset, 64px))" type="auto">
          <Box p="lg">{sidebar}</Box>
        </ScrollArea>
      </Box>
      <Box style={{ flex: 1, minWidth: 0 }} p="xl">
        <AlertBar />
        {children}
      </Box>
    </Box>
  );
}
