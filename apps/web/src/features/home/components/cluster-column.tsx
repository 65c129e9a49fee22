import { Text } from '@mantine/core';
import { clusterKeyString } from '@bo/shared/item-keys';
import type { ClusterListItem } from '@bo/shared/search';
import { MAX_OPEN_CLUSTERS } from '../logic/open-items';
import { OpenButton } from './column-actions';
import { formatInteger } from '@/lib/format';
import type { Sortable } from '../logic/sort-items';
import { ITEM_ROW_HEIGHT } from './item-meta';
import { DeleteCreateTools, ItemResultRow, type ColumnProps } from './item-result-row';
import { ResultColumn } from './result-column';

export const clusterKey = clusterKeyString;

const CLUSTER_SORTS = ['name', 'status', 'lastChange'] as const;
const sortable = (c: ClusterListItem): Sortable => ({ name: c.clusterLabel, status: c.status, updatedAt: c.updatedAt });

export function ClusterColumn(column: ColumnProps & { clusters: readonly ClusterListItem[] }) {
  const { clusters, selected, onSelectedChange, onOpen } = column;
  const full = selected.size >= MAX_OPEN_CLUSTERS;
  return (
    <ResultColumn
      title="Cluster Selection"
      testId="cluster-column"
      items={clusters}
      getKey={clusterKey}
      getText={(c) => `${c.clusterLabel} ${c.clusterId}`}
      selected={selected}
      onSelectedChange={onSelectedChange}
      maxSelected={MAX_OPEN_CLUSTERS}
      emptyText="No clusters"
      rowHeight={ITEM_ROW_HEIGHT}
      sortKeys={CLUSTER_SORTS}
      getSortable={sortable}
      actions={
        <>
          <OpenButton label={`Open Select (max ${MAX_OPEN_CLUSTERS})`} disabled={selected.size === 0} disabledReason="Select the clusters to open first" onClick={onOpen} testId="open-clusters" />
          <Text fz="xs" fw={700} c={full ? 'red' : 'dimmed'} data-testid="cluster-counter" data-full={full || undefined} style={{ whiteSpace: 'nowrap' }}>
            {selected.size} / {MAX_OPEN_CLUSTERS}
          </Text>
        </>
      }
      tools={<DeleteCreateTools kind="cluster" column={column} />}
      renderRow={(c, isSelected, toggle) => (
        <ItemResultRow of={{ kind: 'cluster', item: c }} facts={[`${formatInteger(c.door)} ${c.door === 1 ? 'door' : 'doors'}`, c.country.join(' ')]} grants={column.grants} selected={isSelected} onToggle={toggle} disabled={!isSelected && full} />
      )}
    />
  );
}
