import { useEffect } from 'react';
import { useBlocker, type Location } from 'react-router';
import { confirmDialog, type ConfirmOptions } from '@/components/ui/confirm-dialog';
import { isLeaving } from './is-leaving';

export interface LeaveGuardOptions {
  /** The question asked before navigating to `next` with unsaved changes. */
  question: (next: Location) => ConfirmOptions;
  /**
   * Also guard navigations that change only the query string: the cluster editor opens other
   * clusters on the same path, the module editor does not.
   */
  guardSearch?: boolean;
}

/**
 * Unsaved changes: an in-app navigation waits for the editor's question (React Router's blocker);
 * closing or reloading the tab gets the browser's own question (beforeunload; browsers show their own text).
 */
export function useLeaveGuard(dirty: boolean, { question, guardSearch = false }: LeaveGuardOptions): void {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && isLeaving(currentLocation, nextLocation, guardSearch));

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirmDialog(question(blocker.location)).then((leave) => (leave ? blocker.proceed() : blocker.reset()));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the question is read when the navigation is blocked; a new function each render must not ask again
  }, [blocker]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = true;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
