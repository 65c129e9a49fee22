import { clusterKeyString } from '@bo/shared/item-keys';
import { Badge, Group, Loader, Paper, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronRight, IconLock } from '@tabler/icons-react';
import { STATISTICS_TEXTS, type StatisticCluster } from '@bo/shared/statistics';
import { SearchNotice, type SearchState } from '@/components/ui/search-notice';

export type StatisticResultsState = SearchState;

/** A cluster locked by someone other than the caller cannot be opened from here. */
export const lockedByOther = (c: StatisticCluster, username: string | undefined) => c.locked && c.userLock !== null && c.userLock !== username;

/**
 * The Statistics result list (part 2 §2, §8): cluster labels with the LEGO badge; a cluster locked by
 * another user is disabled and says who holds it; a click on a free one asks the page to open it.
 */
export function StatisticResults({
  state,
  clusters,
  username,
  opening,
  onOpen,
}: {
  state: StatisticResultsState;
  clusters: readonly StatisticCluster[];
  username: string | undefined;
  /** The cluster being locked and opened (its row shows a loader, the others wait). */
  opening: string | null;
  onOpen: (cluster: StatisticCluster) => void;
}) {
  if (state !== 'done' || clusters.length === 0) {
    return (
      <SearchNotice
        state={state}
        empty={clusters.length === 0}
        testId="statistic"
        idle="Move at least one slider and press Search: the clusters whose share of active SKUs lies inside every moved range are listed here."
        emptyText={STATISTICS_TEXTS.empty}
        tooMany={{ title: STATISTICS_TEXTS.tooMany, hint: STATISTICS_TEXTS.tooManyHint }}
      />
    );
  }
  return (
    <Stack gap="sm">
      <Text fz="sm" c="dimmed" data-testid="statistic-count">
        {clusters.length} cluster{clusters.length === 1 ? '' : 's'}
      </Text>
      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
        <Stack gap={0} data-testid="statistic-results">
          {clusters.map((c, i) => {
            const blocked = lockedByOther(c, username);
            const busy = opening === c.clusterId;
            return (
              <UnstyledButton
                key={clusterKeyString(c)}
                onClick={() => onOpen(c)}
                disabled={blocked || opening !== null}
                px="md"
                py="sm"
                title={blocked ? `Locked by ${c.userLock}` : 'Open the cluster'}
                data-testid={`statistic-cluster-${c.clusterId}`}
                data-locked={blocked || undefined}
                style={{
                  borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-gray-2)',
                  opacity: blocked ? 0.55 : 1,
                  cursor: blocked ? 'not-allowed' : 'pointer',
                }}
              >
                <Group justify="space-between" wrap="nowrap" gap="md">
                  <Group gap="sm" wrap="nowrap" miw={0}>
                    <Stack gap={0} miw={0}>
                      <Text fz="sm" fw={600} truncate>
                        {c.clusterLabel}
                      </Text>
                      <Text fz="xs" c="dimmed" truncate>
                        {c.clusterId} · {c.brand} · {c.classId}
                      </Text>
                    </Stack>
                    {c.legoMonth && (
                      <Badge variant="filled" color="grape" radius="sm" size="sm" data-testid="statistic-lego">
                        LEGO
                      </Badge>
                    )}
                  </Group>
                  <Group gap="xs" wrap="nowrap">
                    {blocked && (
                      <Tooltip label={`Locked by ${c.userLock}`} withArrow>
                        <Badge color="gray" variant="light" tt="none" leftSection={<IconLock size={12} />} data-testid="statistic-locked-by">
                          Locked by {c.userLock}
                        </Badge>
                      </Tooltip>
                    )}
                    {busy ? <Loader size="xs" /> : !blocked && <IconChevronRight size={16} color="var(--mantine-color-gray-5)" aria-hidden />}
                  </Group>
                </Group>
              </UnstyledButton>
            );
          })}
        </Stack>
      </Paper>
    </Stack>
  );
}
