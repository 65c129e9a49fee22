import { Group, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { NotPublishedBadge } from '@/components/editor/publish-outcome';
import { StatusBadge } from '@/components/ui/status-badge';
import { formatDateTime } from '@/lib/format';

/** Home rows are this tall (px): name, key and status, facts, last change. */
export const ITEM_ROW_HEIGHT = 86;

const dim = { fz: 11, c: 'dimmed', lh: '16px' } as const;
/** The key line holds 22 px icon buttons. */
const KEY_LINE = 22;

/**
 * The lines under a module or cluster row's name: its key and status, a few facts (counts, doors,
 * countries) and who changed it last, when. Each line is cut at the column's edge, never wrapped, so
 * every row keeps its height.
 */
export function ItemMeta({
  code,
  status,
  rpasErrors,
  facts,
  updatedBy,
  updatedAt,
  actions,
}: {
  code: string;
  status: string;
  /** The planning system's errors: a WIP item with errors was rejected and is marked "Not published". */
  rpasErrors?: string | null;
  facts: (string | null | undefined | false)[];
  updatedBy: string | null;
  updatedAt: string | null;
  /** Small icon buttons at the end of the key line (lock, open in a new tab): the name keeps the full width. */
  actions?: React.ReactNode;
}) {
  const when = formatDateTime(updatedAt);
  return (
    <>
      <Group gap={8} wrap="nowrap" h={KEY_LINE}>
        <Text {...dim} ff="monospace" truncate="end" style={{ minWidth: 0 }} title={code}>
          {code}
        </Text>
        <StatusBadge status={status} size="xs" style={{ flexShrink: 0 }} />
        <NotPublishedBadge name={code} status={status} rpasErrors={rpasErrors} size="xs" />
        {actions && (
          <Group gap={2} wrap="nowrap" ml="auto" style={{ flexShrink: 0 }} onClick={(e) => e.stopPropagation()}>
            {actions}
          </Group>
        )}
      </Group>
      <Text {...dim} truncate="end" data-testid="item-facts">
        {facts.filter(Boolean).join(' · ')}
      </Text>
      <Group gap={4} wrap="nowrap" data-testid="item-last-change">
        <IconPencil size={11} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} aria-hidden />
        <Text {...dim} truncate="end" title={`Last changed by ${updatedBy ?? 'unknown'}${when ? ` on ${when}` : ''}`}>
          {updatedBy ?? '—'}
          {when && ` · ${when}`}
        </Text>
      </Group>
    </>
  );
}
