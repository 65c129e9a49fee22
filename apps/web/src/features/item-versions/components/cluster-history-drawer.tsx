import { Alert, Badge, Group, Paper, ScrollArea, SimpleGrid, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { ClusterVersionContent, ClusterVersionDetail } from '@bo/shared/item-versions';
import { formatMonthId } from '@/lib/format';
import { getClusterHistory } from '../api/get-cluster-history';
import { getClusterVersion } from '../api/get-cluster-version';
import { clusterCompareSummary, compareClusterContents, type SetCompare } from '../logic/compare';
import { HistoryDrawer, useVersionBrowser, VersionBrowser } from './version-browser';
import type { ClusterHistorySlotProps as ClusterHistoryProps } from '@/components/editor/history-slots';

/** The History panel of a cluster block: versions, a side-by-side comparison, "Restore this version". */
export function ClusterHistoryDrawer(props: ClusterHistoryProps) {
  const { opened, onClose, item } = props;
  return (
    <HistoryDrawer opened={opened} onClose={onClose} label={item.clusterLabel} itemKey={item.clusterId} monthId={item.monthId}>
      <ClusterHistoryBody {...props} />
    </HistoryDrawer>
  );
}

function ClusterHistoryBody({ item, current, classificationLabels, canRestore, onRestore, onClose }: ClusterHistoryProps) {
  const key = { clusterId: item.clusterId, monthId: item.monthId };
  const [restoring, setRestoring] = useState(false);
  const browser = useVersionBrowser<ClusterVersionContent, ClusterVersionDetail>(
    {
      kind: 'cluster',
      itemKey: item.clusterId,
      monthId: item.monthId,
      getHistory: (page, signal) => getClusterHistory(key, page, signal),
      getVersion: (n, signal) => getClusterVersion(key, n, signal),
    },
    current,
  );
  const { selected, left, otherVersion, rightContent } = browser;
  const cmp = useMemo(() => (left.data && rightContent ? compareClusterContents(left.data.content, rightContent) : null), [left.data, rightContent]);
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
    <VersionBrowser
      browser={browser}
      onScreenLabel="The cluster on screen"
      readOnlyTitle="The cluster is read-only for you"
      canRestore={canRestore}
      restoring={restoring}
      onRestore={(detail) => void restore(detail)}
      summary={cmp ? clusterCompareSummary(cmp) : null}
    >
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
      {cmp && (
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
      )}
    </VersionBrowser>
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
          <Text fz={11} c="red.9">
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
          <Text fz={11} c="teal.9">
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
