import { Group, Text, Tooltip } from '@mantine/core';
import { IconEye, IconPencil } from '@tabler/icons-react';
import type { LiveItemRef } from '@bo/shared/live-events';
import { peopleOf } from '@/lib/live/presence-map';
import { LIVE_TEXTS } from '@/lib/live/presence-texts';
import { useSession } from '@/lib/session';
import { useItemPresence } from './use-live';

/**
 * The list rows' sign that other people have an item open (home results, Pending, Disco/Removed and Deletion
 * areas): a pencil when someone edits it, an eye when people only look, with how many; its accessible name
 * (and tooltip) says who: 'Open by Anna Rossi (editing)'. The user's own tabs are left out. Nothing when
 * nobody else has it open.
 */
export function PresenceBadge({ item }: { item: LiveItemRef }) {
  const me = useSession((s) => s.user?.username);
  const people = peopleOf(useItemPresence(item), me);
  if (people.length === 0) return null;
  const editing = people.some((p) => p.mode === 'editing');
  const label = LIVE_TEXTS.openBy(people);
  const Icon = editing ? IconPencil : IconEye;
  return (
    <Tooltip label={label} withArrow openDelay={150} multiline maw={320}>
      <Group
        component="span"
        role="img"
        aria-label={label}
        gap={2}
        wrap="nowrap"
        px={5}
        h={20}
        data-testid="presence-badge"
        data-editing={editing || undefined}
        style={{
          borderRadius: 10,
          flexShrink: 0,
          background: editing ? 'var(--mantine-color-violet-0)' : 'var(--mantine-color-gray-1)',
          color: editing ? 'var(--mantine-color-violet-9)' : 'var(--mantine-color-gray-8)',
        }}
      >
        <Icon size={13} stroke={2} aria-hidden />
        {people.length > 1 && (
          <Text component="span" fz={11} fw={700} aria-hidden>
            {people.length}
          </Text>
        )}
      </Group>
    </Tooltip>
  );
}
