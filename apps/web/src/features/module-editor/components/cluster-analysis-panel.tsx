import { Anchor, Badge, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { clusterKeyString } from '@bo/shared/item-keys';
import { useDebouncedValue } from '@mantine/hooks';
import type { ClusterAnalysisItem } from '@bo/shared/working-area';
import { MAX_OPEN_CLUSTERS } from '@bo/shared/cluster-editor';
import { absolute, clusterUrl, clustersUrl } from '@/lib/editor-urls';
import { formatInteger, formatPrice } from '@/lib/format';
import { useClusterAnalysis } from '../api/get-cluster-analysis';
import type { EditorModule } from '../hooks/editor-reducer';

/** Refresh above this percentage is flagged red (part 2 §9). */
const REFRESH_ALERT = 30;

/** Cluster Analysis: the clusters carrying the page's modules, recomputed as the compositions change. */
export function ClusterAnalysisPanel({ modules }: { modules: EditorModule[] }) {
  const body = modules.map((m) => ({
    moduleName: m.dto.moduleName,
    monthId: m.dto.monthId,
    productDtoList: m.products.map((p) => ({ upc: p.upc, mustHave: p.mustHave, moduleCompositionStatus: p.moduleCompositionStatus })),
  }));
  const [debounced] = useDebouncedValue(body, 600);
  const query = useClusterAnalysis(debounced);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fz="xs" fw={700} tt="uppercase" lts={0.6} c="dimmed">
          Cluster Analysis
        </Text>
        {query.isFetching && <Loader size={14} />}
      </Group>
      {(query.data ?? []).length > 1 && (
        <Anchor
          fz="xs"
          href={absolute(clustersUrl((query.data ?? []).slice(0, MAX_OPEN_CLUSTERS)))}
          target="_blank"
          rel="noopener"
          data-testid="open-analysis-clusters"
        >
          Open these clusters{(query.data ?? []).length > MAX_OPEN_CLUSTERS ? ` (first ${MAX_OPEN_CLUSTERS})` : ''}
        </Anchor>
      )}
      {(query.data ?? []).length === 0 && !query.isLoading && (
        <Text fz="sm" c="dimmed">
          No Data Available
        </Text>
      )}
      {(query.data ?? []).map((c) => (
        <ClusterItem key={clusterKeyString(c)} c={c} />
      ))}
    </Stack>
  );
}

function Metric({ label, value, alert }: { label: string; value: string; alert?: boolean }) {
  return (
    <div>
      <Text fz={10} c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text fz="xs" fw={650} c={alert ? 'red.9' : undefined}>
        {value}
      </Text>
    </div>
  );
}

function ClusterItem({ c }: { c: ClusterAnalysisItem }) {
  return (
    <Paper withBorder p={8} radius="md" data-testid="cluster-analysis-item">
      <Group justify="space-between" gap={4} mb={4}>
        <Anchor fz="sm" fw={700} truncate href={absolute(clusterUrl(c))} target="_blank" rel="noopener" title="Open the cluster in a new tab">
          {c.clusterLabel}
        </Anchor>
        <Badge size="xs" variant="light">
          {formatInteger(c.doors)} doors
        </Badge>
      </Group>
      <SimpleGrid cols={3} spacing={6} verticalSpacing={4}>
        <Metric label="MH" value={formatInteger(c.mh)} />
        <Metric label="EL" value={formatInteger(c.el)} />
        <Metric label="MH + EL" value={formatInteger(c.mhandEL)} />
        <Metric label="Min facing" value={c.minFacing === null ? '–' : formatInteger(c.minFacing)} alert={c.minFacing !== null && c.minFacing < c.mh} />
        <Metric label="Max facing" value={c.maxFacing === null ? '–' : formatInteger(c.maxFacing)} alert={c.maxFacing !== null && c.maxFacing < c.mhandEL} />
        <span />
        <Metric label="Refresh MH" value={`${c.refreshMH}%`} alert={c.refreshMH > REFRESH_ALERT} />
        <Metric label="Refresh EL" value={`${c.refreshEL}%`} alert={c.refreshEL > REFRESH_ALERT} />
        <Metric label="Refresh all" value={`${c.refreshMHandEL}%`} alert={c.refreshMHandEL > REFRESH_ALERT} />
        <Metric label="Avg price" value={formatPrice(c.avgPrice)} />
        <Metric label="Avg SRP" value={formatPrice(c.avgSRPPrice)} />
      </SimpleGrid>
      <Text fz={10} c="dimmed" mt={4} lineClamp={2} title={c.modules.join(', ')}>
        Modules: {c.modules.join(', ')}
      </Text>
    </Paper>
  );
}
