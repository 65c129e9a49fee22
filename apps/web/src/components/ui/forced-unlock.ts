import { confirmDialog } from '@/components/ui/confirm-dialog';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { ApiError } from '@/lib/api-error';

export type LockedItemType = 'module' | 'cluster';

/** The spec's lock texts (part 1 §2 home, part 2 §4 "Locking"), for home's lock icon and the editors' lock banner. */
export const LOCK_TEXTS = {
  editing: (owner: string, type: LockedItemType) => `${owner} is editing the ${type}`,
  question: (type: LockedItemType) => `Are you sure you want to unlock this ${type}?`,
  consequence: 'The user will lose all unsaved work.',
  confirm: 'Yes, Unlock',
  cancel: 'No, Go Back',
  unlocked: (type: LockedItemType) => `The ${type} has been unlocked`,
} as const;

/**
 * The spec's "Yes, Unlock" flow: asks, then runs `unlock` from the dialog (its button shows loading and
 * takes one click), flashes `unlockedText` on success and shows the error otherwise. Resolves true when
 * the item was unlocked.
 */
export async function confirmForcedUnlock(type: LockedItemType, unlock: () => Promise<unknown>, unlockedText = LOCK_TEXTS.unlocked(type)): Promise<boolean> {
  try {
    const done = await confirmDialog({
      title: LOCK_TEXTS.question(type),
      message: LOCK_TEXTS.consequence,
      confirmLabel: LOCK_TEXTS.confirm,
      cancelLabel: LOCK_TEXTS.cancel,
      confirmColor: 'red',
      action: unlock,
    });
    if (done) flash(unlockedText);
    return done;
  } catch (error) {
    showMessagePopup('Error!', error instanceof ApiError ? error.message : 'Unlock failed');
    return false;
  }
}
