import { Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The colour of a job's progress bar by its status (exports and uploads). */
const PROGRESS_COLORS: Record<string, string> = { WIP: 'yellow', DONE: 'teal', ERROR: 'red', PREVIEW: 'blue', CANCELLED: 'gray', EXPIRED: 'gray' };

/** A job's progress cell: the bar (striped while it runs) and the percentage. */
export function JobProgress({ progress, status, testId }: { progress: number; status: string; testId: string }) {
  return (
    <Group gap="xs" wrap="nowrap" data-testid={testId}>
      <Progress value={progress} color={PROGRESS_COLORS[status]} size="md" radius="xl" w={84} striped={status === 'WIP'} animated={status === 'WIP'} aria-label={`Progress ${progress}%`} />
      <Text fz="xs" c="dimmed" w={36} ta="right">
        {Math.round(progress)}%
      </Text>
    </Group>
  );
}

/** A titled panel around a job history table (exports, uploads), newest first and read again every 5 seconds. */
export function HistoryPanel({ title, testId, children }: { title: string; testId?: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p="lg" data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" align="baseline" wrap="wrap">
          <Title order={4} fw={650}>
            {title}
          </Title>
          <Text fz="xs" c="dimmed">
            Newest first · refreshed every 5 seconds
          </Text>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
