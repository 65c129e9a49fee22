import { useRef } from 'react';

/**
 * When the page first read each item it shows (by the answer object: an item read again is a new object): the
 * live notices (use-live-item-notices.ts) call a version saved after it outdated. One for the module and cluster pages.
 */
export function useReadAt<T extends object>(): (item: T) => number {
  const readAt = useRef(new WeakMap<T, number>());
  return (item) => {
    let at = readAt.current.get(item);
    if (at === undefined) {
      at = Date.now();
      readAt.current.set(item, at);
    }
    return at;
  };
}
