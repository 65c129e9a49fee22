import { ActionIcon, Text, Tooltip } from '@mantine/core';
import { clusterKeyString } from '@bo/shared/item-keys';
import { IconExternalLink } from '@tabler/icons-react';
import type { ClusterListItem } from '@bo/shared/search';
import { canEdit, isAdmin } from '@bo/shared/permissions';
import type { Grant } from '@bo/shared/grants';
import { clusterUrl, openInNewTab } from '@/lib/editor-urls';
import { MAX_OPEN_CLUSTERS } from '../logic/open-items';
import { CreateButton, DeleteButton, OpenButton } from './column-actions';
import { formatInteger } from '@/lib/format';
import type { Sortable } from '../logic/sort-items';
import { ItemMeta, ITEM_ROW_HEIGHT } from './item-meta';
import { LockIndicator } from './lock-indicator';
import { PresenceBadge } from '@/components/live/presence-badge';
import { ResultColumn, ResultRow } from './result-column';

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
        <>
          <DeleteButton label="Delete selected clusters" disabled={selected.size === 0 || !canDeleteSelection} disabledReason={selected.size === 0 ? 'Select the clusters to delete first' : 'You need the delete right on a selected cluster’s brand and zone'} onClick={onDelete} testId="delete-clusters" />
          <CreateButton label="Create cluster" disabled={!canCreate} disabledReason={createDisabledReason ?? 'You need the create right for the selected brand'} onClick={onCreate} testId="create-cluster" />
        </>
      }
      renderRow={(c, isSelected, toggle) => (
        <ResultRow
          selected={isSelected}
          onToggle={toggle}
          disabled={!isSelected && full}
          label={c.clusterLabel}
          testId="cluster-row"
        >
          <Text fz="sm" fw={600} lh="20px" truncate="end" title={c.clusterLabel} data-testid="cluster-label">
            {c.clusterLabel}
          </Text>
          <ItemMeta
            code={c.clusterId}
            status={c.status}
            rpasErrors={c.rpasErrors}
            facts={[`${formatInteger(c.door)} ${c.door === 1 ? 'door' : 'doors'}`, c.country.join(' ')]}
            updatedBy={c.updatedBy}
            updatedAt={c.updatedAt}
            actions={
              <>
                <PresenceBadge item={{ kind: 'cluster', name: c.clusterId, monthId: c.monthId }} />
                {c.locked && c.userLock && (
                  <LockIndicator
                    owner={c.userLock}
                    target={{ type: 'cluster', key: { clusterId: c.clusterId, monthId: c.monthId } }}
                    canUnlock={admin || canEdit(grants, { brand: c.brandCode, zones: c.starZones })}
                  />
                )}
                <Tooltip label="Open in a new tab" withArrow openDelay={300}>
                  <ActionIcon variant="subtle" size={22} aria-label={`Open ${c.clusterId} in a new tab`} onClick={() => openInNewTab(clusterUrl(c))}>
                    <IconExternalLink size={15} />
                  </ActionIcon>
                </Tooltip>
              </>
            }
          />
        </ResultRow>
      )}
    />
  );
}
