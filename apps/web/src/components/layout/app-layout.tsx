import { AppShell } from '@mantine/core';
import { Outlet } from 'react-router';
import { AppHeader } from '@/components/ui/app-header';

/** Every signed-in screen: the header with the user menu above the screen (which places the alert bar). */
export function AppLayout() {
  return (
    <AppShell header={{ height: 64 }} padding={0}>
      <AppShell.Header>
        <AppHeader />
      </AppShell.Header>
      <AppShell.Main bg="gray.0" mih="100dvh" display="flex" style={{ flexDirection: 'column' }}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
