import { Text } from '@mantine/core';
import { clusterKeyString } from '@bo/shared/item-keys';
import type { ClusterListItem } from '@bo/shared/search';
import { canEdit, isAdmin } from '@bo/shared/permissions';
import type { Grant } from '@bo/shared/grants';
import { clusterUrl } from '@/lib/editor-urls';
import { MAX_OPEN_CLUSTERS } from '../logic/open-items';
import { OpenButton } from './column-actions';
import { formatInteger } from '@/lib/format';
import type { Sortable } from '../logic/sort-items';
import { ITEM_ROW_HEIGHT } from './item-meta';
import { DeleteCreateTools, ItemResultRow } from './item-result-row';
import { ResultColumn } from './result-column';

export const clusterKey = clusterKeyString;

const CLUSTER_SORTS = ['name', 'status', 'lastChange'] as const;
const sortable = (c: ClusterListItem): Sortable => ({ name: c.clusterLabel, status: c.status, updatedAt: c.updatedAt });

export function ClusterColumn({
  clusters,
  grants,
  selected,
  onSelectedChange,
  onOpen,
  onDelete,
  onCreate,
  canCreate,
  createDisabledReason,
  canDeleteSelection,
}: {
  clusters: readonly ClusterListItem[];
  grants: readonly Grant[];
  selected: ReadonlySet<string>;
  onSelectedChange: (next: Set<string>) => void;
  onOpen: () => void;
  onDelete: () => void;
  onCreate: () => void;
  canCreate: boolean;
  /** Why Create is off when it is not the missing right (a closed month). */
  createDisabledReason?: string;
  canDeleteSelection: boolean;
}) {
  const admin = isAdmin(grants);
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
      tools={
        <DeleteCreateTools
          kind="cluster"
          selectedCount={selected.size}
          canDeleteSelection={canDeleteSelection}
          onDelete={onDelete}
          canCreate={canCreate}
          createDisabledReason={createDisabledReason}
          onCreate={onCreate}
        />
      }
      renderRow={(c, isSelected, toggle) => (
        <ItemResultRow
          target={{ type: 'cluster', key: { clusterId: c.clusterId, monthId: c.monthId } }}
          label={c.clusterLabel}
          status={c.status}
          rpasErrors={c.rpasErrors}
          facts={[`${formatInteger(c.door)} ${c.door === 1 ? 'door' : 'doors'}`, c.country.join(' ')]}
          updatedBy={c.updatedBy}
          updatedAt={c.updatedAt}
          lockedBy={c.locked ? c.userLock : null}
          canUnlock={admin || canEdit(grants, { brand: c.brandCode, zones: c.starZones })}
          url={clusterUrl(c)}
          selected={isSelected}
          onToggle={toggle}
          disabled={!isSelected && full}
        />
      )}
    />
  );
}
