import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

/**
 * A screen the caller may not use: its title, why, and the way back home — instead of a screen whose
 * every call the server would refuse with 403 (administration screens, Import Data without the right).
 */
export function NoAccessPage({ title, message, details, testId }: { title: string; message: string; details?: string; testId: string }) {
  return (
    <Stack gap="lg" maw={960} mx="auto" w="100%" data-no-access>
      <Title order={2} fw={650}>
        {title}
      </Title>
      <Paper withBorder radius="lg" p={48} shadow="xs">
        <Stack align="center" gap="sm">
          <ThemeIcon size={56} radius="xl" variant="light" color="red">
            <IconLock size={28} stroke={1.6} />
          </ThemeIcon>
          <Text fz="lg" fw={500} data-testid={testId}>
            {message}
          </Text>
          {details && (
            <Text c="dimmed" ta="center" maw={460} fz="sm">
              {details}
            </Text>
          )}
          <Button component={Link} to={paths.home.path} variant="light" mt="sm" leftSection={<IconArrowLeft size={16} />}>
            Back to home
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}
