import { ActionIcon, Tooltip } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { ApiError } from '@/lib/api-error';
import { unlockCluster } from '../api/unlock-cluster';
import { unlockModule } from '../api/unlock-module';
import { HOME_RESULTS_KEY } from '../hooks/use-home-search';

export const LOCK_TEXTS = {
  editing: (user: string, type: 'module' | 'cluster') => `${user} is editing the ${type}`,
  question: (type: 'module' | 'cluster') => `Are you sure you want to unlock this ${type}?`,
  consequence: 'The user will lose all unsaved work.',
  confirm: 'Yes, Unlock',
  cancel: 'No, Go Back',
  unlocked: (type: 'module' | 'cluster') => `The ${type} has been unlocked`,
} as const;

type LockTarget = { type: 'module'; key: { moduleName: string; monthId: string } } | { type: 'cluster'; key: { clusterId: string; monthId: string } };

/**
 * The lock of an item another user is editing: '{user} is editing the module'. Who may force the
 * unlock (admin, or an edit right on the item) clicks it and confirms: the owner loses unsaved work.
 */
export function LockIndicator({ owner, target, canUnlock }: { owner: string; target: LockTarget; canUnlock: boolean }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const text = LOCK_TEXTS.editing(owner, target.type);

  const unlock = async () => {
    const yes = await confirmDialog({
      title: LOCK_TEXTS.question(target.type),
      message: LOCK_TEXTS.consequence,
      confirmLabel: LOCK_TEXTS.confirm,
      cancelLabel: LOCK_TEXTS.cancel,
      confirmColor: 'red',
    });
    if (!yes) return;
    setBusy(true);
    try {
      if (target.type === 'module') await unlockModule(target.key);
      else await unlockCluster(target.key);
      flash(LOCK_TEXTS.unlocked(target.type));
      await queryClient.invalidateQueries({ queryKey: HOME_RESULTS_KEY });
    } catch (error) {
      showMessagePopup('Error!', error instanceof ApiError ? error.message : 'Unlock failed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Tooltip label={text} withArrow openDelay={150}>
      <ActionIcon
        variant="light"
        color="orange"
        size="sm"
        radius="xl"
        aria-label={text}
        data-testid="lock-indicator"
        loading={busy}
        onClick={(event) => {
          event.stopPropagation();
          if (canUnlock) void unlock();
        }}
        style={{ cursor: canUnlock ? 'pointer' : 'default' }}
      >
        <IconLock size={13} stroke={2} />
      </ActionIcon>
    </Tooltip>
  );
}
