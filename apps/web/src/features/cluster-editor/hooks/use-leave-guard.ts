import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import { paths } from '@/config/paths';
import { confirmDialog } from '@/components/ui/confirm-dialog';

/**
 * Unsaved changes (part 2 §4 "Leaving and switching"): leaving the screen asks 'You are leaving the page
 * without saving…'; opening other clusters in the editor asks 'Do you want to change the cluster?'.
 * Closing or reloading the tab gets the browser's own question.
 */
export function useLeaveGuard(dirty: boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    const switching = blocker.location.pathname === paths.cluster.path;
    void confirmDialog(
      switching
        ? { title: CLUSTER_EDITOR_TEXTS.switchTitle, message: CLUSTER_EDITOR_TEXTS.switchBody, confirmLabel: 'Yes', cancelLabel: 'No' }
        : { title: 'Attention!', message: CLUSTER_EDITOR_TEXTS.leaving, confirmLabel: 'Yes', cancelLabel: 'No' },
    ).then((ok) => (ok ? blocker.proceed() : blocker.reset()));
  }, [blocker]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
