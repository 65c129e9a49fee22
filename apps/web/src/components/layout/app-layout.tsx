import { AppShell } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Outlet } from 'react-router';
import { AppHeader } from '@/components/ui/app-header';

/**
 * Every signed-in screen: the header with the user menu above the screen (which places the alert bar).
 * The confirmation and message popups (@mantine/modals) are only opened by signed-in screens: their
 * provider lives here, so /login does not load it.
 */
export function AppLayout() {
  return (
    <ModalsProvider>
      <AppShell header={{ height: 64 }} padding={0}>
        <AppShell.Header>
          <AppHeader />
        </AppShell.Header>
        <AppShell.Main bg="gray.0" mih="100dvh" display="flex" style={{ flexDirection: 'column' }}>
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </ModalsProvider>
  );
}
