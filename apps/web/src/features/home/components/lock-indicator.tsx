import { ActionIcon, Tooltip } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { confirmForcedUnlock, LOCK_TEXTS } from '@/components/ui/forced-unlock';
import { forceUnlockCluster, forceUnlockModule } from '@/lib/forced-unlock-calls';
import { HOME_RESULTS_KEY } from '../api/home-results';


export type LockTarget = { type: 'module'; key: { moduleName: string; monthId: string } } | { type: 'cluster'; key: { clusterId: string; monthId: string } };

/**
 * The lock of an item another user is editing: '{user} is editing the module'. Who may force the
 * unlock (admin, or an edit right on the item) clicks it and confirms: the owner loses unsaved work.
 */
export function LockIndicator({ owner, target, canUnlock }: { owner: string; target: LockTarget; canUnlock: boolean }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const text = LOCK_TEXTS.editing(owner, target.type);

  const unlock = async () => {
    setBusy(true);
    try {
      await confirmForcedUnlock(target.type, async () => {
        if (target.type === 'module') await forceUnlockModule(target.key);
        else await forceUnlockCluster(target.key);
        await queryClient.invalidateQueries({ queryKey: HOME_RESULTS_KEY });
      });
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
