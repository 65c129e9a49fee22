import { Box, Group, Text, Tooltip } from '@mantine/core';
import { IconEye, IconPencil } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import type { LiveItemRef, PresenceViewer } from '@bo/shared/live-events';
import { peopleOf, presenceChange } from '@/lib/live/presence-map';
import { LIVE_TEXTS, formatSince } from '@/lib/live/presence-texts';
import { useSession } from '@/lib/session';
import { announce } from './live-announcer';
import { useItemPresence } from './use-live';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

/**
 * On an editor (a module card, a cluster block): everyone else who has the item open, with editing or
 * viewing and since when, as a labelled list; arrivals, departures and a switch between viewing and editing
 * are announced politely (one live region, live-announcer.tsx). The user's own tabs are left out. `what`
 * names the item in the announcements ('the module Aurora Optical 01').
 */
export function PresenceList({ item, what, px, pt }: { item: LiveItemRef; what: string; px?: number; pt?: number }) {
  const me = useSession((s) => s.user?.username);
  const people = peopleOf(useItemPresence(item), me);
  const previous = useRef<PresenceViewer[] | null>(null);
  const signature = people.map((p) => `${p.username}:${p.mode}`).join(',');

  useEffect(() => {
    const before = previous.current;
    previous.current = people;
    if (!before) return; // who was there when the page opened is shown, not announced
    const change = presenceChange(before, people);
    const lines = [
      ...change.arrived.map((v) => LIVE_TEXTS.arrived(v, what)),
      ...change.left.map((v) => LIVE_TEXTS.left(v, what)),
      ...change.switched.map((v) => LIVE_TEXTS.switched(v, what)),
    ];
    if (lines.length) announce(lines.join('. '));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `signature` stands for the people (compared by value)
  }, [signature]);

  if (people.length === 0) return null;
  const label = LIVE_TEXTS.listTitle(item.kind);
  return (
    <Group gap={6} wrap="wrap" align="center" px={px} pt={pt} data-testid="presence-list">
      <Text fz={11} c="dimmed" fw={600} aria-hidden>
        Also open:
      </Text>
      <Box component="ul" aria-label={label} m={0} p={0} style={{ listStyle: 'none', display: 'flex', flexWrap: 'wrap', gap: 6 }}>
        {people.map((v) => {
          const editing = v.mode === 'editing';
          const Icon = editing ? IconPencil : IconEye;
          const since = formatSince(v.since);
          return (
            <Tooltip key={v.username} label={`${LIVE_TEXTS.person(v)}, ${LIVE_TEXTS.since(v)}`} withArrow openDelay={200}>
              <Group
                component="li"
                gap={4}
                wrap="nowrap"
                px={6}
                py={1}
                data-testid="presence-person"
                data-username={v.username}
                data-mode={v.mode}
                style={{
                  borderRadius: 12,
                  border: `1px solid ${editing ? 'var(--mantine-color-violet-3)' : 'var(--mantine-color-gray-3)'}`,
                  background: editing ? 'var(--mantine-color-violet-0)' : 'var(--mantine-color-white)',
                }}
              >
                <Box
                  aria-hidden
                  w={18}
                  h={18}
                  fz={9}
                  fw={700}
                  style={{ borderRadius: 9, display: 'grid', placeItems: 'center', background: editing ? 'var(--mantine-color-violet-9)' : 'var(--mantine-color-gray-7)', color: 'white' }}
                >
                  {initials(v.displayName)}
                </Box>
                <Text component="span" fz={11} fw={600} c={editing ? 'violet.9' : 'gray.9'}>
                  {v.displayName}
                </Text>
                <Icon size={12} aria-hidden color={editing ? 'var(--mantine-color-violet-9)' : 'var(--mantine-color-gray-7)'} />
                <Text component="span" fz={11} c={editing ? 'violet.9' : 'gray.8'}>
                  {LIVE_TEXTS.mode(v)} since {since}
                </Text>
              </Group>
            </Tooltip>
          );
        })}
      </Box>
    </Group>
  );
}
