import { describe, expect, it } from 'vitest';
import { applyNotice, settleNotices, type TrackedItem } from './live-item-notices';

/** The page read version 7 of the item. */
const LOADED = 7;
const track = (over: Partial<TrackedItem> = {}) => new Map([['M|x', { key: 'M|x', holds: false, lockedBy: 'anna', version: LOADED, ...over }]]);
const item = (lockedBy: string | null, savedAt: string | null = null, version = savedAt ? LOADED + 1 : LOADED) => ({
  type: 'item' as const,
  key: 'M|x',
  version,
  lockedBy,
  savedAt,
  me: 'creator',
});

describe('live notices of an editor item', () => {
  it('offers the lock when the other user releases it, and withdraws the offer when someone takes it', () => {
    const released = applyNotice({}, track(), item(null));
    expect(released['M|x']).toEqual({ released: { by: 'anna' } });
    expect(applyNotice(released, track(), item('marco'))['M|x']).toBeUndefined();
  });

  it('marks a read-only view outdated only for a version newer than the one the page read, whatever the clocks say', () => {
    // The version the page has (a lock taken or let go changes no version): not outdated.
    expect(applyNotice({}, track(), item('anna', '2026-11-29T09:01:00Z', LOADED))).toEqual({});
    // An older version (an event that left before the page's read): not outdated.
    expect(applyNotice({}, track(), item('anna', '2026-11-29T09:01:00Z', LOADED - 1))).toEqual({});
    expect(applyNotice({}, track(), item('anna', '2026-11-29T09:01:00Z'))['M|x']).toEqual({ outdated: { savedAt: '2026-11-29T09:01:00Z', by: 'anna' } });
    // Saved at a time far ahead of, or behind, this browser's clock (a server whose clock differs, data dated ahead):
    // a newer version all the same.
    expect(applyNotice({}, track(), item('anna', '2031-01-15T12:00:00Z'))['M|x']?.outdated?.savedAt).toBe('2031-01-15T12:00:00Z');
    expect(applyNotice({}, track(), item('anna', '2020-01-15T12:00:00Z'))['M|x']?.outdated?.savedAt).toBe('2020-01-15T12:00:00Z');
    // The user's own save in another tab (they hold the lock now): not someone else's newer version.
    expect(applyNotice({}, track(), item('creator', '2026-11-29T09:01:00Z'))).toEqual({});
  });

  it('names who saved the version (savedBy), not who holds the lock now', () => {
    const saved = '2026-11-29T09:01:00Z';
    // marco saved, then let go; anna holds the lock now: the notice names marco.
    expect(applyNotice({}, track(), { ...item('anna', saved), savedBy: 'marco' })['M|x']).toEqual({ outdated: { savedAt: saved, by: 'marco' } });
    // A saver the server does not know: nobody named, never the lock holder.
    expect(applyNotice({}, track(), { ...item('anna', saved), savedBy: null })['M|x']).toEqual({ outdated: { savedAt: saved, by: null } });
    // An older server's event without savedBy: the lock holder, as before.
    expect(applyNotice({}, track({ lockedBy: 'marco' }), item(null, saved))['M|x']?.outdated).toEqual({ savedAt: saved, by: 'marco' });
  });

  it('ignores events about items the page does not show, and releases for a page holding the lock', () => {
    expect(applyNotice({}, track(), { ...item(null), key: 'other' })).toEqual({});
    expect(applyNotice({}, track({ holds: true }), item(null))).toEqual({});
  });

  it('records a lost lock only when the page holds it; then a free lock is offered again', () => {
    expect(applyNotice({}, track(), { type: 'lockLost', key: 'M|x', reason: 'lapsed', by: null })).toEqual({});
    const lost = applyNotice({}, track({ holds: true, lockedBy: null }), { type: 'lockLost', key: 'M|x', reason: 'forced', by: 'admin' });
    expect(lost['M|x']).toEqual({ lost: { reason: 'forced', by: 'admin' } });
    // The page no longer holds it; the forcer lets it go.
    const free = applyNotice(lost, track({ holds: false, lockedBy: 'admin' }), item(null));
    expect(free['M|x']).toMatchObject({ lost: { reason: 'forced' }, released: { by: 'admin' } });
  });

  it('settles: a reload clears outdated, holding the lock clears released and lost, a closed item loses its notices', () => {
    const notices = { 'M|x': { outdated: { savedAt: 's', by: null }, released: { by: 'anna' } } };
    expect(settleNotices(notices, track({ version: LOADED + 1 }), track())['M|x']).toEqual({ released: { by: 'anna' } });
    expect(settleNotices(notices, track({ holds: true }), track())['M|x']).toEqual({ outdated: { savedAt: 's', by: null } });
    expect(settleNotices(notices, new Map(), track())).toEqual({});
  });
});
