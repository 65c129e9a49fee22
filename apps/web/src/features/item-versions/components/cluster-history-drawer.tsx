import { Alert, Badge, Button, Drawer, Group, Paper, ScrollArea, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconHistory, IconRestore } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ClusterVersionContent, ClusterVersionDetail } from '@bo/shared/item-versions';
import { formatMonthId } from '@/lib/format';
import { getClusterHistory } from '../api/get-cluster-history';
import { getClusterVersion } from '../api/get-cluster-version';
import { clusterCompareSummary, compareClusterContents, type SetCompare } from '../logic/compare';
import { failureText, VersionList } from './version-list';

/** What the cluster page hands the History panel of one cluster block (structurally the page's ClusterHistorySlotProps). */
export interface ClusterHistoryProps {
  opened: boolean;
  onClose: () => void;
  item: { clusterId: string; monthId: string; clusterLabel: string };
  /** The block's content on screen (maybe unsaved). */
  current: ClusterVersionContent;
  classificationLabels: Record<number, string>;
  canRestore: boolean;
  /**
   * Loads the version into the block as unsaved changes: its modules (those that still exist), LIAs, classifications and
   * description. Stores are not the editor's to change (the release files own them): they are compared, not restored.
   */
  onRestore: (restored: { content: ClusterVersionContent; revertOf: number; skippedModules: string[] }) => Promise<void> | void;
}

const CURRENT = 'current';

/** The History panel of a cluster block: versions, a side-by-side comparison, "Restore this version". */
export function ClusterHistoryDrawer(props: ClusterHistoryProps) {
  const { opened, onClose, item } = props;
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={760}
      title={
        <Group gap={8}>
          <IconHistory size={18} />
          <Title order={4}>History</Title>
          <Text fz="sm" c="dimmed">
            {item.clusterLabel} ({item.clusterId}, {formatMonthId(item.monthId)})
          </Text>
        </Group>
      }
    >
      {opened && <ClusterHistoryBody {...props} />}
    </Drawer>
  );
}

function ClusterHistoryBody({ item, current, classificationLabels, canRestore, onRestore, onClose }: ClusterHistoryProps) {
  const key = { clusterId: item.clusterId, monthId: item.monthId };
  const [pageNumber, setPageNumber] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const [against, setAgainst] = useState<string>(CURRENT);
  const [restoring, setRestoring] = useState(false);

  const history = useQuery({
    queryKey: ['item-versions', 'cluster', item.clusterId, item.monthId, 'page', pageNumber],
    queryFn: ({ signal }) => getClusterHistory(key, pageNumber, signal),
    placeholderData: keepPreviousData,
    retry: false,
    // Every save adds a version: the list is read again each time the panel opens.
    staleTime: 0,
  });
  const versionQuery = (n: number | null) => ({
    queryKey: ['item-versions', 'cluster', item.clusterId, item.monthId, 'version', n],
    queryFn: ({ signal }: { signal: AbortSignal }) => getClusterVersion(key, n!, signal),
    enabled: n !== null,
    retry: false,
    staleTime: Infinity,
  });
  const left = useQuery(versionQuery(selected));
  const otherVersion = against === CURRENT ? null : Number(against);
  const right = useQuery(versionQuery(otherVersion));
  const rightContent = otherVersion === null ? current : right.data?.content;
  const cmp = useMemo(() => (left.data && rightContent ? compareClusterContents(left.data.content, rightContent) : null), [left.data, rightContent]);

  const entries = history.data?.content ?? [];
  const againstOptions = [{ value: CURRENT, label: 'The cluster on screen' }, ...entries.filter((e) => e.version !== selected).map((e) => ({ value: String(e.version), label: `Version ${e.version}` }))];
  const rightTitle = otherVersion === null ? 'on screen' : `version ${otherVersion}`;

  const restore = async (detail: ClusterVersionDetail) => {
    setRestoring(true);
    try {
      const missing = new Set(detail.flags.missingModules);
      await onRestore({
        content: { ...detail.content, modules: detail.content.modules.filter((m) => !missing.has(m)) },
        revertOf: detail.entry.version,
        skippedModules: detail.content.modules.filter((m) => missing.has(m)),
      });
      onClose();
    } finally {
      setRestoring(false);
    }
  };

  const flags = left.data?.flags;
  const classLabel = (id: number) => classificationLabels[id] ?? `#${id}`;

  return (
    <Stack gap="md" data-testid="history-panel">
      <VersionList
        page={history.data}
        loading={history.isFetching}
        error={history.isError ? failureText(history.error) : null}
        selected={selected}
        onSelect={(n) => {
          setSelected(n);
          if (against === String(n)) setAgainst(CURRENT);
        }}
        onPage={setPageNumber}
      />
      {selected === null ? (
        entries.length > 0 && (
          <Text fz="sm" c="dimmed">
            Pick a version to compare it with the cluster on screen or with another version.
          </Text>
        )
      ) : (
        <Stack gap="xs" data-testid="version-compare">
          <Group justify="space-between" align="flex-end">
            <Select
              size="xs"
              w={260}
              label={`Compare version ${selected} with`}
              data={againstOptions}
              value={against}
              onChange={(v) => setAgainst(v ?? CURRENT)}
              allowDeselect={false}
              data-testid="compare-with"
            />
            <Button
              size="xs"
              leftSection={<IconRestore size={14} />}
              disabled={!canRestore || !left.data}
              loading={restoring}
              onClick={() => left.data && void restore(left.data)}
              title={canRestore ? undefined : 'The cluster is read-only for you'}
              data-testid="restore-version"
            >
              Restore this version
            </Button>
          </Group>
          {left.isError || right.isError ? (
            <Text c="red.7" fz="sm">
              {failureText(left.error ?? right.error)}
            </Text>
          ) : !cmp ? (
            <Text fz="sm" c="dimmed">
              Loading…
            </Text>
          ) : (
            <>
              <Text fz="sm" fw={600} data-testid="compare-summary">
                From version {selected} to {otherVersion === null ? 'the screen' : `version ${otherVersion}`}: {clusterCompareSummary(cmp)}
              </Text>
              {flags && (flags.missingStores.length > 0 || flags.missingModules.length > 0) && (
                <Alert color="orange" variant="light" p="xs" data-testid="version-flags">
                  <Text fz="xs">
                    {flags.missingModules.length > 0 && `Modules that no longer exist in ${formatMonthId(item.monthId)}: ${flags.missingModules.join(', ')} (not restored). `}
                    {flags.missingStores.length > 0 && `Stores that no longer exist: ${flags.missingStores.join(', ')}.`}
                  </Text>
                </Alert>
              )}
              <Text fz="xs" c="dimmed">
                Restoring loads the modules, LIAs, classifications and description; the stores come from the release files and stay as they are.
              </Text>
              <ScrollArea.Autosize mah="calc(100vh - 560px)" type="auto" offsetScrollbars>
                <SimpleGrid cols={2} spacing="xs" data-testid="compare-table">
                  <SetBox title="Modules" set={cmp.modules} leftTitle={`version ${selected}`} rightTitle={rightTitle} flagged={flags?.missingModules} testId="modules" />
                  <SetBox title="Stores" set={cmp.stores} leftTitle={`version ${selected}`} rightTitle={rightTitle} flagged={flags?.missingStores} testId="stores" />
                  <SetBox title="LIAs" set={cmp.lias} leftTitle={`version ${selected}`} rightTitle={rightTitle} testId="lias" />
                  <SetBox
                    title="Classifications"
                    set={{ onlyLeft: cmp.classifications.onlyLeft.map(classLabel), onlyRight: cmp.classifications.onlyRight.map(classLabel), both: cmp.classifications.both.map(classLabel) }}
                    leftTitle={`version ${selected}`}
                    rightTitle={rightTitle}
                    testId="classifications"
                  />
                </SimpleGrid>
                {cmp.description.changed && (
                  <Paper withBorder p="xs" mt="xs" data-testid="compare-description">
                    <Text fz="xs" fw={700}>
                      Description
                    </Text>
                    <Text fz="xs">
                      Version {selected}: {cmp.description.left || '—'}
                    </Text>
                    <Text fz="xs">
                      {otherVersion === null ? 'On screen' : `Version ${otherVersion}`}: {cmp.description.right || '—'}
                    </Text>
                  </Paper>
                )}
              </ScrollArea.Autosize>
            </>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** One list of the comparison: only in the version (red), only on the right (green), and how many both have. */
function SetBox({ title, set, leftTitle, rightTitle, flagged, testId }: { title: string; set: SetCompare<string>; leftTitle: string; rightTitle: string; flagged?: string[]; testId: string }) {
  const changed = set.onlyLeft.length + set.onlyRight.length > 0;
  return (
    <Paper withBorder p="xs" data-testid={`compare-${testId}`} data-changed={changed || undefined}>
      <Text fz="xs" fw={700} mb={4}>
        {title}
      </Text>
      {set.onlyLeft.length > 0 && (
        <div>
          <Text fz={11} c="red.7">
            Only in {leftTitle}:
          </Text>
          <Group gap={4}>
            {set.onlyLeft.map((x) => (
              <Badge key={x} size="xs" color="red" variant={flagged?.includes(x) ? 'filled' : 'light'} tt="none" title={flagged?.includes(x) ? 'No longer exists' : undefined}>
                {x}
              </Badge>
            ))}
          </Group>
        </div>
      )}
      {set.onlyRight.length > 0 && (
        <div>
          <Text fz={11} c="teal.7">
            Only {rightTitle === 'on screen' ? 'on screen' : `in ${rightTitle}`}:
          </Text>
          <Group gap={4}>
            {set.onlyRight.map((x) => (
              <Badge key={x} size="xs" color="teal" variant="light" tt="none">
                {x}
              </Badge>
            ))}
          </Group>
        </div>
      )}
      <Text fz={11} c="dimmed">
        {changed ? `${set.both.length} in both` : `Same on both sides (${set.both.length})`}
      </Text>
    </Paper>
  );
}
