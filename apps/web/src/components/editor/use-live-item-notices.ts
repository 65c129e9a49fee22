import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LiveItemKind } from '@bo/shared/live-events';
import { announce } from '@/components/live/live-announcer';
import { useLiveMessages } from '@/components/live/use-live';
import { LIVE_TEXTS } from '@/lib/live/presence-texts';
import { useSession } from '@/lib/session';
import { applyNotice, settleNotices, type ItemNotice, type Notices, type TrackedItem } from './live-item-notices';

/**
 * The live notices of an editor's items (live-item-notices.ts): fed by the tab's stream, settled when the page
 * re-reads or re-locks an item. `keyOf` turns an event's item (name, month) into the editor's key; `onLockLost`
 * lets the editor switch that item to read-only at once (its unsaved edits stay on screen).
 */
export function useLiveItemNotices({
  kind,
  items,
  keyOf,
  onLockLost,
  describe,
}: {
  kind: LiveItemKind;
  items: readonly TrackedItem[];
  keyOf: (name: string, monthId: string) => string;
  onLockLost: (key: string, by: string | null) => void;
  /** The item's name in an announcement ('Aurora Optical 01'). */
  describe: (key: string) => string;
}): { notices: Notices; dismiss: (key: string, what: keyof ItemNotice) => void } {
  const me = useSession((s) => s.user?.username) ?? '';
  const [notices, setNotices] = useState<Notices>({});
  const tracked = useMemo(() => new Map(items.map((i) => [i.key, i])), [items]);
  const trackedRef = useRef(tracked);
  const previous = useRef(tracked);
  trackedRef.current = tracked;

  useEffect(() => {
    const before = previous.current;
    previous.current = tracked;
    setNotices((n) => settleNotices(n, tracked, before));
  }, [tracked]);

  useLiveMessages((message) => {
    if ((message.type !== 'item' && message.type !== 'lockLost') || message.data.kind !== kind) return;
    const key = keyOf(message.data.name, message.data.monthId);
    const item = trackedRef.current.get(key);
    if (!item) return;
    if (message.type === 'lockLost') {
      if (!item.holds) return;
      const { reason, by } = message.data;
      setNotices((n) => applyNotice(n, trackedRef.current, { type: 'lockLost', key, reason, by }));
      onLockLost(key, reason === 'forced' ? by : null);
      announce(`${describe(key)}: ${reason === 'forced' ? LIVE_TEXTS.lockForced(kind, by) : LIVE_TEXTS.lockLapsed(kind)}`);
      return;
    }
    const { version, lockedBy, savedAt, savedBy } = message.data;
    setNotices((n) => {
      const next = applyNotice(n, trackedRef.current, { type: 'item', key, version, lockedBy, savedAt, savedBy, me });
      if (next[key]?.released && !n[key]?.released) announce(`${describe(key)}: ${LIVE_TEXTS.released(next[key].released.by || null, kind)}`);
      return next;
    });
  });

  const dismiss = useCallback((key: string, what: keyof ItemNotice) => {
    setNotices((n) => {
      const current = n[key];
      if (!current) return n;
      const { [what]: _gone, ...rest } = current;
      const { [key]: _old, ...others } = n;
      return Object.keys(rest).length ? { ...others, [key]: rest } : others;
    });
  }, []);

  return { notices, dismiss };
}
