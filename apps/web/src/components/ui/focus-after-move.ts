import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * Keeps keyboard focus on an item that a key or a button moves to another list (issue 34): the module page's
 * SKU tile after M (MH/EL) or Delete, the cluster page's module chip after Remove or Restore. The moved item is
 * a new element in its new list, so the old one's focus would fall back to the page: the action names the
 * item (`focusAfterMove(token)`) and the item that mounts with that token takes the focus.
 */
let pending: { token: string; until: number } | null = null;

/** The item `token` is about to move: focus it where it appears next (within a second). */
export function focusAfterMove(token: string) {
  pending = { token, until: Date.now() + 1000 };
}

/** The item a move named, still to be focused (null: none): a list that draws only some of its items draws it too. */
export const focusPending = (): string | null => (pending && Date.now() <= pending.until ? pending.token : null);

/**
 * The ref to give the item's element (it also calls `setNodeRef`, dnd-kit's): the element takes the focus
 * when it (re)mounts as the item a move named.
 */
export function useFocusAfterMove(token: string | null, setNodeRef: (el: HTMLElement | null) => void): (el: HTMLElement | null) => void {
  const node = useRef<HTMLElement | null>(null);
  const setRef = useCallback(
    (el: HTMLElement | null) => {
      node.current = el;
      setNodeRef(el);
    },
    [setNodeRef],
  );
  useLayoutEffect(() => {
    if (!token || pending?.token !== token) return;
    const fresh = Date.now() <= pending.until;
    pending = null;
    if (fresh) node.current?.focus();
  }, [token]);
  return setRef;
}
