import { Box } from '@mantine/core';
import { AlertBar } from '@/components/ui/alert-bar';

/** The padded content area of a screen without a sidebar, with the alert bar on top. */
export function PageContent({ children }: { children: React.ReactNode }) {
  return (
    <Box p="xl" style={{ flex: 1 }}>
      <AlertBar />
      {children}
    </Box>
  );
}
