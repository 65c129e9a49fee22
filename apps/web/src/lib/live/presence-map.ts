import type { LiveItemRef, PresenceViewer } from '@bo/shared/live-events';

/** Who has each item open, by presenceKey; an item nobody has open is absent. */
export type PresenceMap = ReadonlyMap<string, readonly PresenceViewer[]>;

export const EMPTY_PRESENCE: PresenceMap = new Map();

/** One item-month as a map key: 'module|NAME|M03_2027'. */
export const presenceKey = (ref: LiveItemRef) => `${ref.kind}|${ref.name}|${ref.monthId}`;

type ItemViewers = LiveItemRef & { viewers: readonly PresenceViewer[] };

/** The stream's first frame (hello) lists everything open now: it replaces what was known (a reconnect). */
export function presenceFromSnapshot(items: readonly ItemViewers[]): PresenceMap {
  const map = new Map<string, readonly PresenceViewer[]>();
  for (const item of items) if (item.viewers.length) map.set(presenceKey(item), item.viewers);
  return map;
}

/** A presence event: that item's viewers now. The map is new only when something changed (React compares by identity). */
export function applyPresence(map: PresenceMap, item: ItemViewers): PresenceMap {
  const key = presenceKey(item);
  const before = map.get(key);
  if (!before && item.viewers.length === 0) return map;
  if (before && sameViewers(before, item.viewers)) return map;
  const next = new Map(map);
  if (item.viewers.length) next.set(key, item.viewers);
  else next.delete(key);
  return next;
}

const viewerId = (v: PresenceViewer) => `${v.username}|${v.mode}|${v.since}`;

function sameViewers(a: readonly PresenceViewer[], b: readonly PresenceViewer[]): boolean {
  return a.length === b.length && a.every((v, i) => viewerId(v) === viewerId(b[i]!) && v.displayName === b[i]!.displayName);
}

/**
 * One person per user name (two tabs of the same user are one person): the 'editing' tab wins, then the
 * earliest `since`. Sorted editing first, then by when they opened it.
 */
export function peopleOf(viewers: readonly PresenceViewer[], leaveOut?: string): PresenceViewer[] {
  const byUser = new Map<string, PresenceViewer>();
  for (const v of viewers) {
    if (leaveOut && v.username.toLowerCase() === leaveOut.toLowerCase()) continue;
    const seen = byUser.get(v.username);
    if (!seen || (v.mode === 'editing' && seen.mode !== 'editing') || (v.mode === seen.mode && v.since < seen.since)) byUser.set(v.username, v);
  }
  return [...byUser.values()].sort((a, b) => (a.mode === b.mode ? a.since.localeCompare(b.since) : a.mode === 'editing' ? -1 : 1));
}

interface PresenceChange {
  arrived: PresenceViewer[];
  left: PresenceViewer[];
  /** Same person, other mode (took or gave up the lock). */
  switched: PresenceViewer[];
}

/** What changed between two lists of people (for the polite announcements of arrivals and departures). */
export function presenceChange(before: readonly PresenceViewer[], after: readonly PresenceViewer[]): PresenceChange {
  const old = new Map(before.map((v) => [v.username, v]));
  const now = new Map(after.map((v) => [v.username, v]));
  return {
    arrived: after.filter((v) => !old.has(v.username)),
    left: before.filter((v) => !now.has(v.username)),
    switched: after.filter((v) => old.has(v.username) && old.get(v.username)!.mode !== v.mode),
  };
}
