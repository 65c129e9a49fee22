import { ActionIcon, Text, Tooltip } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { PresenceBadge } from '@/components/live/presence-badge';
import { openInNewTab } from '@/lib/editor-urls';
import { CreateButton, DeleteButton } from './column-actions';
import { ItemMeta } from './item-meta';
import { LockIndicator, type LockTarget } from './lock-indicator';
import { ResultRow } from './result-column';

/**
 * One module or cluster of a home result column: its label, then the key line (code, status, facts, last
 * change) with who has it open, its lock (force-unlockable by `canUnlock`) and "Open in a new tab".
 */
export function ItemResultRow({
  target,
  label,
  status,
  rpasErrors,
  facts,
  updatedBy,
  updatedAt,
  lockedBy,
  canUnlock,
  url,
  selected,
  onToggle,
  disabled,
}: {
  target: LockTarget;
  label: string;
  status: string;
  rpasErrors?: string | null;
  facts: (string | null | undefined | false)[];
  updatedBy: string | null;
  updatedAt: string | null;
  /** The user who holds the lock, when the item is locked. */
  lockedBy: string | null;
  canUnlock: boolean;
  url: string;
  selected: boolean;
  onToggle: () => void;
  disabled?: boolean;
}) {
  const kind = target.type;
  const name = target.type === 'module' ? target.key.moduleName : target.key.clusterId;
  return (
    <ResultRow selected={selected} onToggle={onToggle} disabled={disabled} label={label} testId={`${kind}-row`}>
      <Text fz="sm" fw={600} lh="20px" truncate="end" title={label} data-testid={`${kind}-label`}>
        {label}
      </Text>
      <ItemMeta
        code={name}
        status={status}
        rpasErrors={rpasErrors}
        facts={facts}
        updatedBy={updatedBy}
        updatedAt={updatedAt}
        actions={
          <>
            <PresenceBadge item={{ kind, name, monthId: target.key.monthId }} />
            {lockedBy && <LockIndicator owner={lockedBy} target={target} canUnlock={canUnlock} />}
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

/** The Delete selected and Create buttons of a result column's header, worded for its kind. */
export function DeleteCreateTools({
  kind,
  selectedCount,
  canDeleteSelection,
  onDelete,
  canCreate,
  createDisabledReason,
  onCreate,
}: {
  kind: 'module' | 'cluster';
  selectedCount: number;
  canDeleteSelection: boolean;
  onDelete: () => void;
  canCreate: boolean;
  createDisabledReason?: string;
  onCreate: () => void;
}) {
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
