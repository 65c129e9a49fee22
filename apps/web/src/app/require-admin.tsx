import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { isAdmin } from '@bo/shared/permissions';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageContent } from '@/components/layout/page-content';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';

/**
 * Administration screens (Manage Users, Brands, Releases): only for admins. Others see why instead
 * of a screen whose every call the server would refuse with 403. Sits inside RequireAuth, so the
 * grants are loaded.
 */
export function RequireAdmin({ title, children }: { title: string; children: React.ReactNode }) {
  const admin = useSession((s) => isAdmin(s.grants ?? []));
  if (admin) return children;
  return (
    <PageContent>
      <Stack gap="lg" maw={960} mx="auto" w="100%">
        <Title order={2} fw={650}>
          {title}
        </Title>
        <Paper withBorder radius="lg" p={48} shadow="xs">
          <Stack align="center" gap="sm">
            <ThemeIcon size={56} radius="xl" variant="light" color="red">
              <IconLock size={28} stroke={1.6} />
            </ThemeIcon>
            <Text fz="lg" fw={500} data-testid="admin-only">
              Only administrators can open this page.
            </Text>
            <Button component={Link} to={paths.home.path} variant="light" mt="sm" leftSection={<IconArrowLeft size={16} />}>
              Back to home
            </Button>
          </Stack>
        </Paper>
      </Stack>
    </PageContent>
  );
}
