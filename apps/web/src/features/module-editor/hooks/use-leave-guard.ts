import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { WORKING_AREA_TEXTS } from '@bo/shared/working-area';
import { askConfirmation } from '@/components/ui/ask-confirmation';

/** Leaving the page (in-app navigation or closing the tab) with unsaved changes asks first. */
export function useLeaveGuard(dirty: boolean): void {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void askConfirmation({ title: 'Unsaved changes', message: WORKING_AREA_TEXTS.leave, confirmLabel: 'Leave', cancelLabel: 'Stay', danger: true }).then((leave) =>
      leave ? blocker.proceed() : blocker.reset(),
    );
  }, [blocker]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // Browsers show their own text; the spec's sentence is shown for in-app navigation.
      event.preventDefault();
      event.returnValue = WORKING_AREA_TEXTS.leave;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
