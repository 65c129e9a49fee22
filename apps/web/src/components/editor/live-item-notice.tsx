import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconLockOpen, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import type { LiveItemKind } from '@bo/shared/live-events';
import { LIVE_TEXTS, formatSince } from '@/lib/live/presence-texts';
import type { ItemNotice } from './live-item-notices';

/**
 * An editor item's live notices (live-item-notices.ts), under its header: the lock it lost (said at once, as an
 * alert), the other user's release with 'Edit it now' (only for who may edit it), and a newer saved version with
 * Reload. `onEdit` takes the lock (keeping unsaved edits), `onReload` reads the saved item again (asking first
 * when there are unsaved edits: that is the editor's).
 */
export function LiveItemNotice({
  kind,
  notice,
  dirty,
  canEdit,
  onEdit,
  onReload,
}: {
  kind: LiveItemKind;
  notice: ItemNotice | undefined;
  /** The item has unsaved edits on this page. */
  dirty: boolean;
  /** The user could edit the item if its lock were free (rights, status, month). */
  canEdit: boolean;
  onEdit: () => Promise<void>;
  onReload: () => Promise<void>;
}) {
  const [busy, setBusy] = useState<'edit' | 'reload' | null>(null);
  if (!notice) return null;
  const run = (what: 'edit' | 'reload', action: () => Promise<void>) => async () => {
    setBusy(what);
    try {
      await action();
    } finally {
      setBusy(null);
    }
  };
  const editButton = (label: string) => (
    <Button size="compact-xs" color="teal" leftSection={<IconLockOpen size={12} />} loading={busy === 'edit'} onClick={run('edit', onEdit)} data-testid="live-edit-now">
      {label}
    </Button>
  );
  const reloadButton = (
    <Button size="compact-xs" variant="default" leftSection={<IconRefresh size={12} />} loading={busy === 'reload'} onClick={run('reload', onReload)} data-testid="live-reload">
      {LIVE_TEXTS.reload}
    </Button>
  );
  const { lost, released, outdated } = notice;
  return (
    <Stack gap={6}>
      {lost && (
        <Alert color="red" variant="light" py={6} icon={<IconAlertTriangle size={16} />} title={LIVE_TEXTS.lockLostTitle(kind)} data-testid="live-lock-lost" data-reason={lost.reason}>
          <Text fz="xs">{lost.reason === 'forced' ? LIVE_TEXTS.lockForced(kind, lost.by) : LIVE_TEXTS.lockLapsed(kind)}</Text>
          <Text fz="xs">{dirty ? LIVE_TEXTS.lockLostEdits : LIVE_TEXTS.lockLostNoEdits}</Text>
          <Group gap={6} mt={6}>
            {released && canEdit && editButton(dirty ? LIVE_TEXTS.editAgain : LIVE_TEXTS.editNow)}
            {reloadButton}
          </Group>
        </Alert>
      )}
      {released && !lost && canEdit && (
        <Group gap={8} px={10} py={5} wrap="nowrap" data-testid="live-released" style={{ background: 'var(--mantine-color-teal-0)', border: '1px solid var(--mantine-color-teal-3)', borderRadius: 6 }}>
          <IconLockOpen size={14} color="var(--mantine-color-teal-9)" style={{ flexShrink: 0 }} />
          <Text fz="xs" fw={600} c="teal.9" style={{ flex: 1 }}>
            {LIVE_TEXTS.released(released.by || null, kind)}
          </Text>
          {editButton(LIVE_TEXTS.editNow)}
        </Group>
      )}
      {outdated && (
        <Group gap={8} px={10} py={5} wrap="nowrap" data-testid="live-outdated" style={{ background: 'var(--mantine-color-yellow-0)', border: '1px solid var(--mantine-color-yellow-4)', borderRadius: 6 }}>
          <IconRefresh size={14} color="var(--bo-warning-text)" style={{ flexShrink: 0 }} />
          <Text fz="xs" fw={600} style={{ flex: 1, color: 'var(--bo-warning-text)' }}>
            {LIVE_TEXTS.outdated(kind, outdated.by, formatSince(outdated.savedAt))}
          </Text>
          {reloadButton}
        </Group>
      )}
    </Stack>
  );
}
