import { AppShell } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Outlet } from 'react-router';
import { AppHeader } from '@/components/ui/app-header';
import { LiveAnnouncer } from '@/components/live/live-announcer';
import { LiveConnection } from '@/components/live/live-connection';

/**
 * Every signed-in screen: the header with the user menu above the screen (which places the alert bar).
 * The confirmation and message popups (@mantine/modals) are only opened by signed-in screens: their
 * provider lives here, so /login does not load it. The tab's live stream (issue 36) lives here too: one per
 * tab while signed in, with the polite live region that announces who arrives and leaves.
 */
export function AppLayout() {
  return (
    <ModalsProvider>
      <LiveConnection />
      <LiveAnnouncer />
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
