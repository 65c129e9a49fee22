import { describe, expect, it } from 'vitest';
import type { ChangeBatch } from './live-changes';
import { lockHolders, withLiveLocks } from './live-locks';

const event = (name: string, lockedBy: string | null, kind: 'module' | 'cluster' = 'module', monthId = 'M01_2027') =>
  ({ kind, name, monthId, brand: 'AUR', version: 1, lockedBy, savedAt: null, status: 'WIP' }) as const;
const batch = (...items: ReturnType<typeof event>[]): ChangeBatch => ({ all: false, scopes: [], items: [...items] });
const row = (name: string, userLock: string | null, monthId = 'M01_2027') => ({ name, monthId, locked: userLock !== null, userLock });
const nameOf = (r: { name: string }) => r.name;

describe('withLiveLocks', () => {
  it('shows a lock taken and a lock released, the last event of an item winning', () => {
    const rows = [row('A', null), row('B', 'anna'), row('C', null)];
    const out = withLiveLocks(rows, 'module', nameOf, lockHolders(batch(event('A', 'bob'), event('B', 'carl'), event('B', null))));
    expect(out).toEqual([row('A', 'bob'), row('B', null), row('C', null)]);
    expect(out[2]).toBe(rows[2]);
  });

  it('leaves rows of another kind or month alone, and returns the same array when nothing changes', () => {
    const rows = [row('A', null), row('B', 'anna', 'M02_2027')];
    const holders = lockHolders(batch(event('A', 'bob', 'cluster'), event('B', null), event('B', 'anna', 'module', 'M02_2027')));
    expect(withLiveLocks(rows, 'module', nameOf, holders)).toBe(rows);
    expect(withLiveLocks(rows, 'module', nameOf, lockHolders(batch()))).toBe(rows);
  });

  it('sets only the holder on rows that have no locked flag', () => {
    const rows = [{ name: 'A', monthId: 'M01_2027', userLock: null }];
    expect(withLiveLocks(rows, 'cluster', nameOf, lockHolders(batch(event('A', 'bob', 'cluster'))))).toEqual([{ name: 'A', monthId: 'M01_2027', userLock: 'bob' }]);
  });
});
