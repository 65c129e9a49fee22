import { Group, Stack, Text, Title } from '@mantine/core';

/** A screen's title, a line on what it is for, and its main actions on the right. */
export function PageHeader({ title, description, actions }: { title: string; description?: React.ReactNode; actions?: React.ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" gap="md" wrap="wrap">
      <Stack gap={4}>
        <Title order={2} fw={650}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" fz="sm" maw={720}>
            {description}
          </Text>
        )}
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
