import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAdjustments, IconEyeglass2 } from '@tabler/icons-react';
import { SidebarLayout } from '@/components/layout/sidebar-layout';

export const WELCOME_TEXT = 'WELCOME TO YOUR ASSORTMENT PERSONALIZATION TOOL BACKOFFICE';

function FiltersPlaceholder() {
  return (
    <Stack gap="xs">
      <Text fz="xs" fw={700} c="dimmed" tt="uppercase" lts={0.8}>
        Search
      </Text>
      <Stack gap={6} align="center" py="xl" px="sm">
        <ThemeIcon size={40} radius="xl" variant="light" color="gray">
          <IconAdjustments size={20} stroke={1.6} />
        </ThemeIcon>
        <Text fz="sm" c="dimmed" ta="center">
          Month, planning channel, brand, collection and stars zone filters will appear here.
        </Text>
      </Stack>
    </Stack>
  );
}

/** Home (spec part 1 §2): filters on the left, results on the right; before any search, a welcome. */
export function HomeRoute() {
  return (
    <SidebarLayout sidebar={<FiltersPlaceholder />}>
      <Stack align="center" justify="center" gap="lg" mih="60vh" ta="center">
        <ThemeIcon size={88} radius={44} variant="light">
          <IconEyeglass2 size={48} stroke={1.4} />
        </ThemeIcon>
        <Title order={2} fz={26} fw={700} lts={1.2} maw={640} c="brand.9" data-testid="welcome">
          {WELCOME_TEXT}
        </Title>
        <Text c="dimmed" maw={520}>
          Choose a month and refine your search to browse macro families, modules and clusters.
        </Text>
      </Stack>
    </SidebarLayout>
  );
}
