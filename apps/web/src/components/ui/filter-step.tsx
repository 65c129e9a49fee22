import { Group, Stack, Text, ThemeIcon } from '@mantine/core';

/** A numbered step of a filter sidebar ('1 choose months', '2 refine your search'): home and Export Data. */
export function FilterStep({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <Stack gap={8}>
      <Group gap={8}>
        <ThemeIcon size={22} radius="xl" variant="filled">
          <Text fz={12} fw={700}>
            {n}
          </Text>
        </ThemeIcon>
        <Text fz="xs" fw={700} c="dimmed" tt="uppercase" lts={0.8}>
          {title}
        </Text>
      </Group>
      {children}
    </Stack>
  );
}
