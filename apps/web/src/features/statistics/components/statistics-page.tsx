import { useMemo, useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { STATISTIC_FIELD_LABELS, STATISTICS_TEXTS, type StatisticCluster, type StatisticSearchRequest } from '@bo/shared/statistics';
import { SidebarLayout } from '@/components/layout/sidebar-layout';
import { showAlert } from '@/components/ui/alert-store';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-error';
import { clusterUrl } from '@/lib/editor-urls';
import { formatMonthId } from '@/lib/format';
import { useSession } from '@/lib/session';
import { useBrands, useCollections } from '@/lib/reference-lists';
import { useStatisticFilters } from '../api/get-statistic-filters';
import { lockCluster } from '../api/lock-cluster';
import { useStatisticSearch } from '../api/search-statistic-clusters';
import { anyMoved, scopeFromQuery, setRange, toFilters, type SliderRanges } from '../logic/sliders';
import { lockedByOther, StatisticResults, type StatisticResultsState } from './statistic-results';
import { StatisticSliders } from './statistic-sliders';

/**
 * The Statistics page (/statistics; part 2 §2, §3, §5, §8; docs/statistics.md), reached from home with the
 * month, brands and collections in the URL. Sliders per SKU attribute value; Search lists the clusters
 * whose share of active SKUs with each moved value lies inside its range; a click on a free cluster takes
 * its lock and opens it on /cluster; a cluster locked by someone else is disabled.
 */
export function StatisticsPage() {
  const [params] = useSearchParams();
  const scope = useMemo(() => scopeFromQuery(params), [params]);
  const navigate = useNavigate();
  const username = useSession((s) => s.user?.username);
  const [ranges, setRanges] = useState<SliderRanges>({});
  const [searched, setSearched] = useState<StatisticSearchRequest | null>(null);
  const [run, setRun] = useState(0);
  const [opening, setOpening] = useState<string | null>(null);
  const options = useStatisticFilters(scope);
  const search = useStatisticSearch(searched, run);
  const brands = useBrands();
  const collections = useCollections();

  if (!scope) {
    return (
      <Stack gap="lg" maw={960} mx="auto" w="100%">
        <PageHeader title={STATISTICS_TEXTS.title} />
        <Paper withBorder radius="lg" p="xl">
          <Stack align="center" gap="sm">
            <Text c="dimmed" ta="center" data-testid="statistic-missing-scope">
              {STATISTICS_TEXTS.missingMonth}
            </Text>
            <Button component={Link} to={paths.home.path} variant="light" leftSection={<IconArrowLeft size={16} />}>
              Back to home
            </Button>
          </Stack>
        </Paper>
      </Stack>
    );
  }

  const moved = anyMoved(ranges);
  const runSearch = () => {
    if (!options.data || !moved) return;
    setSearched({ ...scope, planningChannel: [], filters: toFilters(ranges, options.data) });
    setRun((n) => n + 1);
  };
  const reset = () => {
    setRanges({});
    setSearched(null);
  };

  const open = async (cluster: StatisticCluster) => {
    if (lockedByOther(cluster, username) || opening) return;
    setOpening(cluster.clusterId);
    try {
      const answer = await lockCluster({ clusterId: cluster.clusterId, monthId: cluster.monthId });
      if (answer && !answer.acquired && answer.userLock && answer.userLock !== username) {
        // Taken meanwhile: say so and show the list as it is now.
        showAlert(`The cluster ${cluster.clusterLabel} is locked by ${answer.userLock}.`, 'Cluster locked');
        setRun((n) => n + 1);
        return;
      }
      // Acquired, or a cluster the caller may only view: the editor opens it (read-only in the second case).
      navigate(clusterUrl(cluster));
    } catch {
      // The api client already showed the failure in the alert bar.
    } finally {
      setOpening(null);
    }
  };

  const state: StatisticResultsState =
    searched === null
      ? 'idle'
      : search.error instanceof ApiError && search.error.status === 413
        ? 'tooMany'
        : search.isError
          ? 'failed'
          : search.isPending || search.isFetching
            ? 'loading'
            : 'done';

  const brandName = (code: string) => brands.data?.find((b) => b.brandCode === code)?.description ?? code;
  const collectionName = (code: string) => collections.data?.find((c) => c.collectionCode === code)?.description ?? code;

  return (
    <SidebarLayout
      keepDocked
      sidebar={
        <StatisticSliders
          options={options.data}
          loading={options.isLoading}
          ranges={ranges}
          moved={moved}
          onChange={(key, range) => setRanges((r) => setRange(r, key, range))}
          onReset={reset}
          onSearch={runSearch}
        />
      }
    >
      <Stack gap="lg">
        <Stack gap={6}>
          <PageHeader title={STATISTICS_TEXTS.title} />
          <Group gap={6} data-testid="statistic-filtered-by">
            <Text fz="sm" c="dimmed">
              {STATISTICS_TEXTS.filteredBy}
            </Text>
            <Badge variant="light" color="blue" radius="sm">
              {formatMonthId(scope.monthId)}
            </Badge>
            {scope.brand.map((b) => (
              <Badge key={b} variant="light" color="gray" radius="sm" tt="none">
                {brandName(b)}
              </Badge>
            ))}
            {scope.collection.map((c) => (
              <Badge key={c} variant="outline" color="gray" radius="sm" tt="none">
                {collectionName(c)}
              </Badge>
            ))}
          </Group>
        </Stack>
        {searched && (
          <Group gap={6} data-testid="statistic-searched">
            <Text fz="sm" c="dimmed">
              Searched
            </Text>
            {searched.filters.map((f) => (
              <Badge key={`${f.field}|${f.searchValue}`} variant="dot" color="blue" radius="sm" tt="none">
                {STATISTIC_FIELD_LABELS[f.field]} {options.data?.[f.field].find((o) => o.value === f.searchValue)?.label ?? f.searchValue}: {f.minRange}% – {f.maxRange}%
              </Badge>
            ))}
          </Group>
        )}
        <StatisticResults state={state} clusters={search.data ?? []} username={username} opening={opening} onOpen={(c) => void open(c)} />
      </Stack>
    </SidebarLayout>
  );
}
