import { Group, Paper, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import classes from './module-card.module.css';

/** Tiles per area in a skeleton card: about one row of a card at 1440 px. */
const TILES = 8;

/**
 * The cards' places while the page's lock and modules calls are on their way (issue 34 item 10): the
 * page draws its frame at once — header and these skeletons — instead of a blank area with a spinner.
 * One skeleton per module the page asked for (at most `max`), each shaped like a module card: its
 * header, then the Must Have and Eligible rows of tiles.
 */
export function ModuleCardSkeletons({ count, max = 3 }: { count: number; max?: number }) {
  const shown = Math.max(1, Math.min(count, max));
  return (
    <Stack gap={10} p={2} aria-busy="true" data-testid="module-skeletons">
      <VisuallyHidden role="status">Loading the modules…</VisuallyHidden>
      {Array.from({ length: shown }, (_, i) => (
        <Paper key={i} withBorder radius="md" className={classes.card} data-testid="module-skeleton" aria-hidden="true">
          <Group className={classes.header} gap={8} justify="space-between">
            <Stack gap={6}>
              <Skeleton h={12} w={220} radius="sm" />
              <Skeleton h={9} w={300} radius="sm" />
            </Stack>
            <Group gap={6}>
              <Skeleton h={22} w={90} radius="sm" />
              <Skeleton h={22} w={64} radius="sm" />
              <Skeleton h={22} w={64} radius="sm" />
            </Group>
          </Group>
          {(['Must Have', 'Eligible'] as const).map((area) => (
            <Stack key={area} gap={6} px={10} py={8}>
              <Text fz={11} fw={700} c="dimmed">
                {area}
              </Text>
              <Group gap={8} wrap="nowrap" style={{ overflow: 'hidden' }}>
                {Array.from({ length: TILES }, (_, t) => (
                  <Skeleton key={t} h={132} w={118} radius="md" style={{ flexShrink: 0 }} />
                ))}
              </Group>
            </Stack>
          ))}
        </Paper>
      ))}
    </Stack>
  );
}
