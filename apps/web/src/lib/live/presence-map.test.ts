import { describe, expect, it } from 'vitest';
import type { PresenceViewer } from '@bo/shared/live-events';
import { batchTouches, EMPTY_BATCH } from './live-changes';
import { applyPresence, EMPTY_PRESENCE, peopleOf, presenceChange, presenceFromSnapshot, presenceKey } from './presence-map';
import { formatSince, joinNames, LIVE_TEXTS } from './presence-texts';

const ref = { kind: 'module' as const, name: 'AUR_01', monthId: 'M01_2027' };
const anna: PresenceViewer = { username: 'anna', displayName: 'Anna Rossi', mode: 'editing', since: '2026-11-29T09:00:00.000Z' };
const marco: PresenceViewer = { username: 'marco', displayName: 'Marco Bianchi', mode: 'viewing', since: '2026-11-29T09:05:00.000Z' };

describe('presence map', () => {
  it('starts from the hello snapshot, leaving out items nobody has open', () => {
    const map = presenceFromSnapshot([{ ...ref, viewers: [anna] }, { ...ref, name: 'X', viewers: [] }]);
    expect([...map.keys()]).toEqual([presenceKey(ref)]);
  });

  it('replaces one item per presence event; an empty list removes it; no change keeps the same map', () => {
    const one = applyPresence(EMPTY_PRESENCE, { ...ref, viewers: [anna] });
    expect(one.get(presenceKey(ref))).toEqual([anna]);
    expect(applyPresence(one, { ...ref, viewers: [{ ...anna }] })).toBe(one);
    const two = applyPresence(one, { ...ref, viewers: [anna, marco] });
    expect(two.get(presenceKey(ref))).toHaveLength(2);
    const none = applyPresence(two, { ...ref, viewers: [] });
    expect(none.has(presenceKey(ref))).toBe(false);
    expect(applyPresence(EMPTY_PRESENCE, { ...ref, viewers: [] })).toBe(EMPTY_PRESENCE);
  });

  it('counts a user once (editing wins, then the earliest tab), leaves out oneself, editing first', () => {
    const otherTab: PresenceViewer = { ...anna, mode: 'viewing', since: '2026-11-29T08:00:00.000Z' };
    expect(peopleOf([marco, otherTab, anna])).toEqual([anna, marco]);
    expect(peopleOf([marco, anna], 'ANNA')).toEqual([marco]);
  });

  it('tells arrivals, departures and mode switches apart', () => {
    const change = presenceChange([anna], [{ ...anna, mode: 'viewing' }, marco]);
    expect(change.arrived).toEqual([marco]);
    expect(change.left).toEqual([]);
    expect(change.switched.map((v) => v.username)).toEqual(['anna']);
    expect(presenceChange([anna, marco], [marco]).left).toEqual([anna]);
  });
});

describe('presence texts', () => {
  it('names people in the badge and says since when', () => {
    expect(LIVE_TEXTS.openBy([anna])).toBe('Open by Anna Rossi (editing)');
    expect(LIVE_TEXTS.openBy([anna, marco])).toBe('Open by Anna Rossi (editing) and Marco Bianchi (viewing)');
    expect(joinNames(['a', 'b', 'c'])).toBe('a, b and c');
    const local = new Date(2026, 10, 29, 10, 32);
    expect(formatSince(local.toISOString(), new Date(2026, 10, 29, 18))).toBe('10:32');
    expect(formatSince(local.toISOString(), new Date(2026, 10, 30, 9))).toBe('29/11/2026 10:32');
  });
});

describe('which lists a batch of changes touches', () => {
  const item = { kind: 'module' as const, name: 'A', monthId: 'M01_2027', brand: 'AUR', version: 1, lockedBy: null, savedAt: null, status: 'WIP' };
  it('matches months, brands and kind; empty filters match all', () => {
    const batch = { ...EMPTY_BATCH, items: [item] };
    expect(batchTouches(batch, { monthIds: ['M01_2027'], brands: ['AUR'] })).toBe(true);
    expect(batchTouches(batch, { monthIds: ['M02_2027'] })).toBe(false);
    expect(batchTouches(batch, { brands: ['SLN'] })).toBe(false);
    expect(batchTouches(batch, { brands: [] })).toBe(true);
    expect(batchTouches(batch, { kind: 'cluster' })).toBe(false);
  });
  it('scopes with * cover every brand or month; a reconnection touches everything', () => {
    expect(batchTouches({ ...EMPTY_BATCH, scopes: [{ monthId: 'M01_2027', brand: '*' }] }, { monthIds: ['M01_2027'], brands: ['SLN'] })).toBe(true);
    expect(batchTouches({ ...EMPTY_BATCH, scopes: [{ monthId: '*', brand: 'AUR' }] }, { monthIds: ['M05_2027'], brands: ['SLN'] })).toBe(false);
    expect(batchTouches({ ...EMPTY_BATCH, all: true }, { monthIds: ['M05_2027'] })).toBe(true);
    expect(batchTouches(EMPTY_BATCH)).toBe(false);
  });
});
