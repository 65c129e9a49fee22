import { useEffect, useId, useMemo, useRef } from 'react';
import type { LiveItemRef, PresenceViewer } from '@bo/shared/live-events';
import { EMPTY_BATCH, type ChangeBatch } from '@/lib/live/live-changes';
import { onLiveMessage, presenceStore, reportOpenItems, type LiveMessage, type OpenItem } from '@/lib/live/live-hub';
import { presenceKey } from '@/lib/live/presence-map';
import { useStore } from '@/lib/store';

/** Every message of the tab's stream while the component is mounted (the listener may change between renders). */
export function useLiveMessages(listener: (message: LiveMessage) => void): void {
  const current = useRef(listener);
  current.current = listener;
  useEffect(() => onLiveMessage((message) => current.current(message)), []);
}

const NOBODY: readonly PresenceViewer[] = [];

/** Who has one item open (every tab the stream reports, the user's own included). */
export function useItemPresence(item: LiveItemRef | null): readonly PresenceViewer[] {
  const key = item ? presenceKey(item) : null;
  return useStore(presenceStore, (map) => (key ? (map.get(key) ?? NOBODY) : NOBODY));
}

/** How long changes are gathered before a list refetches: a bulk job's burst of events is one refetch. */
const LIVE_REFRESH_DEBOUNCE_MS = 200;

/**
 * Item and scope changes (and a reconnection, which may have missed some), gathered for
 * LIVE_REFRESH_DEBOUNCE_MS and handed over as one batch: the screen refetches the queries that show them.
 */
export function useLiveChanges(onBatch: (batch: ChangeBatch) => void, debounceMs = LIVE_REFRESH_DEBOUNCE_MS): void {
  const current = useRef(onBatch);
  current.current = onBatch;
  useEffect(() => {
    let batch: ChangeBatch = EMPTY_BATCH;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = onLiveMessage((message) => {
      if (message.type === 'item') batch = { ...batch, items: [...batch.items, message.data] };
      else if (message.type === 'scope') batch = { ...batch, scopes: [...batch.scopes, message.data] };
      else if (message.type === 'reconnected') batch = { ...batch, all: true };
      else return;
      timer ??= setTimeout(() => {
        timer = null;
        const ready = batch;
        batch = EMPTY_BATCH;
        current.current(ready);
      }, debounceMs);
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, [debounceMs]);
}

/**
 * The page tells the server what it has open (PUT /api/presence, renewed every PRESENCE_RENEW_SECONDS):
 * 'editing' for what it holds the lock of (which also keeps the lock's lease alive), 'viewing' otherwise.
 * Unmounting the page withdraws its items.
 */
export function useReportOpenItems(items: readonly OpenItem[]): void {
  const id = useId();
  const signature = JSON.stringify(items);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- compared by value: a new array with the same items sends nothing
  const stable = useMemo(() => items, [signature]);
  useEffect(() => reportOpenItems(id, stable), [id, stable]);
  useEffect(() => () => reportOpenItems(id, []), [id]);
}
