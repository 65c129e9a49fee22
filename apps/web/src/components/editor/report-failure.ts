/**
 * How the module and cluster editors report a failed save, publish or copy (docs/web-app.md "Error
 * texts"): the lost lock says what it means for the changes on screen and what to do; anything else
 * shows the call's message (the API client already words a 5xx or a network failure for people).
 */
import { ApiError } from '../../lib/api-error';
import { showMessagePopup } from '../ui/message-popup';

/** What follows the spec's "Sorry! The … was unlocked by another user, you can't save or publish." */
export const LOST_LOCK_HINT = [
  'Your changes are still on this page, but they were not saved.',
  'To keep them, note or copy them, then reload the page to take the lock again and apply them once more.',
] as const;

/** The spec's lost-lock texts (module and cluster) end in these words. */
const LOST_LOCK_WORDS = "unlocked by another user, you can't save or publish.";

/** A save or publish refused because the caller no longer holds the item's lock (422). */
export const isLostLock = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 422 && (error.key === 'moduleNotLocked' || error.key === 'clusterNotLocked');

/**
 * The lines of a popup that carries server messages (a save-all answers one per refused module): the
 * hint follows once when one of them is the lost lock.
 */
export function withLostLockHint(lines: readonly string[]): string[] {
  return lines.some((l) => l.endsWith(LOST_LOCK_WORDS)) ? [...lines, ...LOST_LOCK_HINT] : [...lines];
}

/** The title and lines the editors show for a failure; `fallback` when the error carries no text. */
export function failureLines(error: unknown, fallback: string): string[] {
  if (isLostLock(error)) return [error.message, ...LOST_LOCK_HINT];
  return [error instanceof Error && error.message ? error.message : fallback];
}

/** Shows a failed editor call in a popup (title 'Error' on the module page, 'Error!' on the cluster page). */
export function reportEditorFailure(error: unknown, { title, fallback }: { title: string; fallback: string }): void {
  showMessagePopup(title, failureLines(error, fallback));
}
