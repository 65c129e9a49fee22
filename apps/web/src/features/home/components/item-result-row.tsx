import { ActionIcon, Text, Tooltip } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { PresenceBadge } from '@/components/live/presence-badge';
import type { Grant } from '@bo/shared/grants';
import { canEdit, isAdmin } from '@bo/shared/permissions';
import type { ClusterListItem, ModuleListItem } from '@bo/shared/search';
import { clusterUrl, moduleUrl, openInNewTab } from '@/lib/editor-urls';
import { CreateButton, DeleteButton } from './column-actions';
import { ItemMeta } from './item-meta';
import { LockIndicator, type LockTarget } from './lock-indicator';
import { ResultRow } from './result-column';

/** A module or a cluster of the home search, with its kind. */
type HomeItem = { kind: 'module'; item: ModuleListItem } | { kind: 'cluster'; item: ClusterListItem };

const describe = (h: HomeItem) =>
  h.kind === 'module'
    ? { name: h.item.moduleName, label: h.item.moduleLabel, brand: h.item.brand, url: moduleUrl(h.item), target: { type: 'module', key: { moduleName: h.item.moduleName, monthId: h.item.monthId } } as LockTarget }
    : { name: h.item.clusterId, label: h.item.clusterLabel, brand: h.item.brandCode, url: clusterUrl(h.item), target: { type: 'cluster', key: { clusterId: h.item.clusterId, monthId: h.item.monthId } } as LockTarget };

/**
 * One module or cluster of a home result column: its label, then the key line (code, status, `facts`, last
 * change) with who has it open, its lock (an admin or an edit right on it may force the unlock) and
 * "Open in a new tab".
 */
export function ItemResultRow({
  of,
  facts,
  grants,
  selected,
  onToggle,
  disabled,
}: {
  of: HomeItem;
  facts: (string | null | undefined | false)[];
  grants: readonly Grant[];
  selected: boolean;
  onToggle: () => void;
  disabled?: boolean;
}) {
  const { kind, item } = of;
  const { name, label, brand, url, target } = describe(of);
  const canUnlock = isAdmin(grants) || canEdit(grants, { brand, zones: item.starZones });
  return (
    <ResultRow selected={selected} onToggle={onToggle} disabled={disabled} label={label} testId={`${kind}-row`}>
      <Text fz="sm" fw={600} lh="20px" truncate="end" title={label} data-testid={`${kind}-label`}>
        {label}
      </Text>
      <ItemMeta
        code={name}
        status={item.status}
        rpasErrors={item.rpasErrors}
        facts={facts}
        updatedBy={item.updatedBy}
        updatedAt={item.updatedAt}
        actions={
          <>
            <PresenceBadge item={{ kind, name, monthId: item.monthId }} />
            {item.locked && item.userLock && <LockIndicator owner={item.userLock} target={target} canUnlock={canUnlock} />}
            <Tooltip label="Open in a new tab" withArrow openDelay={300}>
              <ActionIcon variant="subtle" size={22} aria-label={`Open ${name} in a new tab`} onClick={() => openInNewTab(url)} data-testid={`open-${kind}-tab`}>
                <IconExternalLink size={15} />
              </ActionIcon>
            </Tooltip>
          </>
        }
      />
    </ResultRow>
  );
}

/** What home hands a result column, the same for both kinds. */
export interface ColumnProps {
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
}

/** The Delete selected and Create buttons of a result column's header, worded for its kind. */
export function DeleteCreateTools({
  kind,
  column: { selected, canDeleteSelection, onDelete, canCreate, createDisabledReason, onCreate },
}: {
  kind: 'module' | 'cluster';
  column: ColumnProps;
}) {
  const selectedCount = selected.size;
  return (
    <>
      <DeleteButton
        label={`Delete selected ${kind}s`}
        disabled={selectedCount === 0 || !canDeleteSelection}
        disabledReason={selectedCount === 0 ? `Select the ${kind}s to delete first` : `You need the delete right on a selected ${kind}’s brand and zone`}
        onClick={onDelete}
        testId={`delete-${kind}s`}
      />
      <CreateButton label={`Create ${kind}`} disabled={!canCreate} disabledReason={createDisabledReason ?? 'You need the create right for the selected brand'} onClick={onCreate} testId={`create-${kind}`} />
    </>
  );
}
