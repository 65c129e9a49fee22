/**
 * What the live stream tells an open editor about one of its items (issue 36), as pure state: the lock
 * was released by the other user (offer to take it), a newer version was saved while the page showed an
 * older one (outdated), or the page's own lock was forced or lapsed (lost). The editors (module card,
 * cluster block) show these with live-item-notice.tsx; both use this one reducer.
 */

export interface TrackedItem {
  /** The editor's key of the item (module or cluster key string). */
  key: string;
  /** The page holds the item's lock (editable). */
  holds: boolean;
  /** Who else held the lock when the page last read it (the read-only view's reason), or null. */
  lockedBy: string | null;
  /** The item's version as the page read it (its DTO's `version`): a newer one in an event makes the page outdated. */
  version: number;
}

export interface ItemNotice {
  /** The other user let the lock go: 'Anna released the module. Edit it now'. */
  released?: { by: string };
  /** A version saved after the page read the item. */
  outdated?: { savedAt: string; by: string | null };
  /** The page's lock was taken away: forced by someone, or lapsed. */
  lost?: { reason: 'forced' | 'lapsed'; by: string | null };
}

export type Notices = Readonly<Record<string, ItemNotice>>;

type NoticeInput =
  | {
      type: 'item';
      key: string;
      /** The item's version after the change (the event's `version`). */
      version: number;
      lockedBy: string | null;
      savedAt: string | null;
      /** Who saved that version (the event's `savedBy`); undefined from a server that does not say. */
      savedBy?: string | null | undefined;
      me: string;
    }
  | { type: 'lockLost'; key: string; reason: 'forced' | 'lapsed'; by: string | null };

const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

function set(notices: Notices, key: string, notice: ItemNotice): Notices {
  const clean = Object.fromEntries(Object.entries(notice).filter(([, v]) => v !== undefined)) as ItemNotice;
  const { [key]: _old, ...rest } = notices;
  return Object.keys(clean).length ? { ...rest, [key]: clean } : rest;
}

/** One live event applied to the notices of the page's items (items the page does not show change nothing). */
export function applyNotice(notices: Notices, items: ReadonlyMap<string, TrackedItem>, input: NoticeInput): Notices {
  const item = items.get(input.key);
  if (!item) return notices;
  const now = notices[input.key] ?? {};
  if (input.type === 'lockLost') {
    // Only a lock this page holds is lost here (another tab of the same user may have held it).
    if (!item.holds) return notices;
    return set(notices, input.key, { ...now, released: undefined, lost: { reason: input.reason, by: input.by } });
  }
  const next: ItemNotice = { ...now };
  if (!item.holds) {
    const holder = now.released ? null : item.lockedBy;
    if (input.lockedBy === null && (holder || now.lost)) next.released = { by: holder ?? now.lost?.by ?? '' };
    else if (input.lockedBy !== null && !same(input.lockedBy, input.me)) next.released = undefined;
    // A version newer than the one the page read (versions, not clocks: the server's and the browser's may differ).
    if (input.savedAt && input.version > item.version && !same(input.lockedBy, input.me))
      // Who saved it, as the server says; a server that does not say: the lock holder, who most likely did.
      next.outdated = { savedAt: input.savedAt, by: input.savedBy !== undefined ? input.savedBy : (input.lockedBy ?? item.lockedBy) };
  }
  return set(notices, input.key, next);
}

/**
 * The page re-read or re-locked items: what no longer applies goes (a reload clears 'outdated', holding the
 * lock clears 'released' and 'lost'; an item gone from the page loses its notices).
 */
export function settleNotices(notices: Notices, items: ReadonlyMap<string, TrackedItem>, previous: ReadonlyMap<string, TrackedItem>): Notices {
  let out = notices;
  for (const key of Object.keys(notices)) {
    const item = items.get(key);
    if (!item) {
      out = set(out, key, {});
      continue;
    }
    const before = previous.get(key);
    let n = out[key]!;
    if (before && item.version > before.version) n = { ...n, outdated: undefined, lost: item.holds ? undefined : n.lost };
    if (item.holds) n = { ...n, released: undefined, lost: undefined };
    out = set(out, key, n);
  }
  return out;
}
