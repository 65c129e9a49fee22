import { Button, CopyButton, Group, Popover, Stack, Text } from '@mantine/core';
import { IconLock, IconLockOpen, IconMessageQuestion } from '@tabler/icons-react';
import { useState } from 'react';
import { confirmForcedUnlock, LOCK_TEXTS, type LockedItemType as ItemType } from '@/components/ui/forced-unlock';

/** The banner's texts; the unlock question is the spec's (LOCK_TEXTS, as on home). */
const LOCK_BANNER_TEXTS = {
  editing: LOCK_TEXTS.editing,
  unlocked: (type: ItemType) => `The ${type} has been unlocked: it is yours to edit now`,
  askTitle: (owner: string) => `Only ${owner}, an administrator or a user with an edit right here can unlock it.`,
  askBody: (owner: string, type: ItemType) => `Ask ${owner} to save and close the ${type}, or ask an administrator to unlock it.`,
  askMessage: (owner: string, type: ItemType, item: string) => `Hi ${owner}, could you save and close the ${type} ${item}? I need to edit it.`,
} as const;

/**
 * The header of an item another user holds: the whole owner name (it wraps, never truncated), and
 * 'Unlock' for who may force it (admin, or an edit right on the item: the spec's "Yes, Unlock" flow,
 * docs/LIFECYCLE.md) or 'Ask to unlock' for the others (the spec gives viewers no unlock: a popover
 * says who can, with a message to copy for the owner).
 */
export function LockBanner({
  owner,
  type,
  item,
  canUnlock,
  onUnlock,
}: {
  owner: string;
  type: ItemType;
  /** The item as the planner knows it (for the message to the owner): label and name. */
  item: string;
  canUnlock: boolean;
  /** Forced unlock, then take the lock and read the item again. */
  onUnlock: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const unlock = async () => {
    setBusy(true);
    try {
      await confirmForcedUnlock(type, onUnlock, LOCK_BANNER_TEXTS.unlocked(type));
    } finally {
      setBusy(false);
    }
  };


  return (
    <Group gap={8} wrap="nowrap" align="center" px={10} py={5} data-testid="locked-by" data-owner={owner} style={{ background: 'var(--mantine-color-orange-0)', border: '1px solid var(--mantine-color-orange-2)', borderRadius: 6 }}>
      <IconLock size={14} color="var(--mantine-color-orange-8)" style={{ flexShrink: 0 }} />
      <Text fz="xs" fw={600} style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', color: 'var(--bo-warning-text)' }} data-testid="locked-by-text">
        {LOCK_BANNER_TEXTS.editing(owner, type)}
      </Text>
      {canUnlock ? (
        <Button size="compact-xs" color="orange" variant="filled" leftSection={<IconLockOpen size={12} />} loading={busy} onClick={() => void unlock()} style={{ flexShrink: 0 }}>
          Unlock
        </Button>
      ) : (
        <Popover width={320} position="bottom-end" withArrow shadow="md">
          <Popover.Target>
            <Button size="compact-xs" color="orange" variant="light" leftSection={<IconMessageQuestion size={12} />} style={{ flexShrink: 0 }}>
              Ask to unlock
            </Button>
          </Popover.Target>
          <Popover.Dropdown>
            <Stack gap={6} data-testid="ask-to-unlock">
              <Text fz="xs" fw={600}>
                {LOCK_BANNER_TEXTS.askTitle(owner)}
              </Text>
              <Text fz="xs">{LOCK_BANNER_TEXTS.askBody(owner, type)}</Text>
              <CopyButton value={LOCK_BANNER_TEXTS.askMessage(owner, type, item)}>
                {({ copied, copy }) => (
                  <Button size="compact-xs" variant="default" onClick={copy}>
                    {copied ? 'Message copied' : `Copy a message for ${owner}`}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          </Popover.Dropdown>
        </Popover>
      )}
    </Group>
  );
}
