import { clusterKeyString, moduleKeyString } from '@bo/shared/item-keys';
import { Box, Loader, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { VERSION_TEXTS, type ClusterDiff, type ClusterPublishDiffRequest, type ModuleDiff, type ModulePublishDiffRequest } from '@bo/shared/item-versions';
import { formatDateTime, formatMonthId, formatNumber } from '@/lib/format';
import { isEmptyClusterDiff, isEmptyModuleDiff, moduleDiffSummary, storeGainLines } from '@/lib/publish-diff-summary';
import { useClusterPublishDiff } from '../api/get-cluster-publish-diff';
import { useModulePublishDiff } from '../api/get-module-publish-diff';

const MAX_LISTED = 12;
const list = (xs: readonly string[]) => (xs.length > MAX_LISTED ? `${xs.slice(0, MAX_LISTED).join(', ')} and ${xs.length - MAX_LISTED} more` : xs.join(', '));
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const min = (v: number | null) => (v === null ? '—' : formatNumber(v));

/**
 * What publishing the modules would change, in the publish confirmation: per module, against its last published
 * version and against the previous month's published one (the server computes it: POST /api/module/publishDiff).
 * `items` carry the page's unsaved compositions when there are any.
 */
export function ModulePublishDiff({ items, labels, skus }: { items: ModulePublishDiffRequest; labels?: Record<string, string>; skus?: Record<string, string> }) {
  const diff = useModulePublishDiff(items);
  return (
    <Frame loading={diff.isLoading} failed={diff.isError}>
      {diff.data?.map((d) => (
        <Box key={moduleKeyString(d)} data-testid="publish-diff-item" data-item={d.moduleName}>
          <Text fz="sm" fw={700}>
            {labels?.[d.moduleName] ? `${labels[d.moduleName]} (${d.moduleName})` : d.moduleName}
          </Text>
          <Against
            title={d.lastPublished ? `Against the last published version${d.lastPublished.version !== null ? ` (version ${d.lastPublished.version}` : ''}${d.lastPublished.at ? `, ${formatDateTime(d.lastPublished.at)})` : d.lastPublished.version !== null ? ')' : ''}` : 'Against the last published version'}
            empty={d.lastPublished ? null : VERSION_TEXTS.neverPublished}
            testId="diff-last-published"
          >
            {d.lastPublished && <ModuleDiffLines diff={d.lastPublished.diff} skus={skus} />}
          </Against>
          <Against
            title={d.previousMonth ? `Against ${formatMonthId(d.previousMonth.monthId)} (published)` : 'Against the previous month'}
            empty={d.previousMonth ? null : VERSION_TEXTS.noPreviousMonth}
            testId="diff-previous-month"
          >
            {d.previousMonth && <ModuleDiffLines diff={d.previousMonth.diff} skus={skus} />}
          </Against>
        </Box>
      ))}
    </Frame>
  );
}

/** The same for clusters: stores and modules added and removed, and how many stores gain or lose how many SKUs. */
export function ClusterPublishDiff({ items, labels }: { items: ClusterPublishDiffRequest; labels?: Record<string, string> }) {
  const diff = useClusterPublishDiff(items);
  return (
    <Frame loading={diff.isLoading} failed={diff.isError}>
      {diff.data?.map((d) => (
        <Box key={clusterKeyString(d)} data-testid="publish-diff-item" data-item={d.clusterId}>
          <Text fz="sm" fw={700}>
            {labels?.[d.clusterId] ? `${labels[d.clusterId]} (${d.clusterId})` : d.clusterId}
          </Text>
          <Against
            title={d.lastPublished ? `Against the last published version${d.lastPublished.at ? ` (${formatDateTime(d.lastPublished.at)})` : ''}` : 'Against the last published version'}
            empty={d.lastPublished ? null : VERSION_TEXTS.neverPublished}
            testId="diff-last-published"
          >
            {d.lastPublished && <ClusterDiffLines diff={d.lastPublished.diff} />}
          </Against>
          <Against
            title={d.previousMonth ? `Against ${formatMonthId(d.previousMonth.monthId)} (published)` : 'Against the previous month'}
            empty={d.previousMonth ? null : VERSION_TEXTS.noPreviousMonth}
            testId="diff-previous-month"
          >
            {d.previousMonth && <ClusterDiffLines diff={d.previousMonth.diff} />}
          </Against>
        </Box>
      ))}
    </Frame>
  );
}

function Frame({ loading, failed, children }: { loading: boolean; failed: boolean; children: React.ReactNode }) {
  return (
    <Box mt="sm" data-testid="publish-diff">
      <Text fz="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
        What changes
      </Text>
      {loading ? (
        <Group gap={6}>
          <Loader size="xs" />
          <Text fz="xs" c="dimmed">
            Comparing with the published versions…
          </Text>
        </Group>
      ) : failed ? (
        <Text fz="xs" c="var(--bo-warning-text)" data-testid="publish-diff-failed">
          The changes could not be computed; publishing is still possible.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars>
          <Stack gap="sm">{children}</Stack>
        </ScrollArea.Autosize>
      )}
    </Box>
  );
}

function Against({ title, empty, testId, children }: { title: string; empty: string | null; testId: string; children: React.ReactNode }) {
  return (
    <Box pl="xs" mt={2} style={{ borderLeft: '2px solid var(--mantine-color-gray-3)' }} data-testid={testId}>
      <Text fz="xs" fw={600}>
        {title}
      </Text>
      {empty ? (
        <Text fz="xs" c="dimmed" data-testid="diff-none">
          {empty}
        </Text>
      ) : (
        children
      )}
    </Box>
  );
}

/** A SKU as the page's tiles name it (model colour size) with its UPC, or the UPC alone when the page does not hold it. */
const skuName = (skus: Record<string, string> | undefined) => (upc: string) => (skus?.[upc] ? `${skus[upc]} (${upc})` : upc);

function ModuleDiffLines({ diff, skus }: { diff: ModuleDiff; skus: Record<string, string> | undefined }) {
  const name = skuName(skus);
  if (isEmptyModuleDiff(diff))
    return (
      <Text fz="xs" c="dimmed" data-testid="diff-summary">
        No change
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text fz="xs" data-testid="diff-summary">
        {moduleDiffSummary(diff)}
      </Text>
      {diff.added.length > 0 && <Line label="Added" color="teal.9" text={list(diff.added.map(name))} />}
      {diff.removed.length > 0 && <Line label="Removed" color="red.8" text={list(diff.removed.map(name))} />}
      {diff.mhToEl.length > 0 && <Line label="MH → EL" color="orange.8" text={list(diff.mhToEl.map(name))} />}
      {diff.elToMh.length > 0 && <Line label="EL → MH" color="orange.8" text={list(diff.elToMh.map(name))} />}
      {diff.minChanged.length > 0 && <Line label="Min value" color="blue.8" text={list(diff.minChanged.map((m) => `${name(m.upc)} ${min(m.from)} → ${min(m.to)}`))} />}
    </Stack>
  );
}

function ClusterDiffLines({ diff }: { diff: ClusterDiff }) {
  if (isEmptyClusterDiff(diff))
    return (
      <Text fz="xs" c="dimmed" data-testid="diff-summary">
        No change
      </Text>
    );
  const gains = storeGainLines(diff);
  return (
    <Stack gap={0} data-testid="diff-summary">
      {diff.storesAdded.length > 0 && <Line label={`${count(diff.storesAdded.length, 'store', 'stores')} added`} color="teal.9" text={list(diff.storesAdded)} />}
      {diff.storesRemoved.length > 0 && <Line label={`${count(diff.storesRemoved.length, 'store', 'stores')} removed`} color="red.8" text={list(diff.storesRemoved)} />}
      {diff.modulesAdded.length > 0 && <Line label={`${count(diff.modulesAdded.length, 'module', 'modules')} added`} color="teal.9" text={list(diff.modulesAdded)} />}
      {diff.modulesRemoved.length > 0 && <Line label={`${count(diff.modulesRemoved.length, 'module', 'modules')} removed`} color="red.8" text={list(diff.modulesRemoved)} />}
      {gains.length > 0 && <Line label="SKUs per store" color="grape.8" text={gains.join('; ')} testId="diff-store-gains" />}
    </Stack>
  );
}

function Line({ label, color, text, testId }: { label: string; color: string; text: string; testId?: string }) {
  return (
    <Text fz="xs" data-testid={testId}>
      <Text span fz="xs" fw={600} c={color}>
        {label}:
      </Text>{' '}
      {text}
    </Text>
  );
}

/** A module publish confirmation's body: the spec's question, then what changes. */
export function ModulePublishConfirmation({ question, items, labels, skus }: { question: string; items: ModulePublishDiffRequest; labels?: Record<string, string>; skus?: Record<string, string> }) {
  return (
    <Stack gap={4} data-testid="publish-confirmation">
      <Text fz="sm">{question}</Text>
      <ModulePublishDiff items={items} {...(labels ? { labels } : {})} {...(skus ? { skus } : {})} />
    </Stack>
  );
}
