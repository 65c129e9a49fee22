import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconHourglass } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

/** Stands in for a screen that later work delivers; titled with the screen's name. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Stack gap="lg" maw={960} mx="auto" w="100%">
      <Title order={2} fw={650}>
        {title}
      </Title>
      <Paper withBorder radius="lg" p={48} shadow="xs">
        <Stack align="center" gap="sm">
          <ThemeIcon size={56} radius="xl" variant="light">
            <IconHourglass size={28} stroke={1.6} />
          </ThemeIcon>
          <Text fz="lg" fw={500}>
            This screen is coming soon.
          </Text>
          <Text c="dimmed" ta="center" maw={420} fz="sm">
            {title} is being built. In the meantime you can keep working from the home page.
          </Text>
          <Button component={Link} to={paths.home.path} variant="light" mt="sm" leftSection={<IconArrowLeft size={16} />}>
            Back to home
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}
