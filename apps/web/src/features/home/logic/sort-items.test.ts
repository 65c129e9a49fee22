import { describe, expect, it } from 'vitest';
import { nextSort, sortItems, type Sortable } from './sort-items';

const rows: Sortable[] = [
  { name: 'beta', status: 'SUBMITTED', updatedAt: '2026-11-02T10:00:00.000Z' },
  { name: 'Alpha', status: 'WIP', updatedAt: '2026-11-20T10:00:00.000Z' },
  { name: 'gamma', status: 'SUBMIT_IN_PROGRESS', updatedAt: '2026-10-01T10:00:00.000Z' },
  { name: 'alpha', status: 'WIP', updatedAt: null },
];
const names = (list: readonly Sortable[]) => list.map((r) => r.name);
const self = (r: Sortable) => r;

describe('sortItems', () => {
  it("keeps the server's order by default", () => {
    expect(sortItems(rows, { key: 'default', direction: 'asc' }, self)).toBe(rows);
  });
  it('sorts by name, case-insensitively, both ways', () => {
    expect(names(sortItems(rows, { key: 'name', direction: 'asc' }, self))).toEqual(['Alpha', 'alpha', 'beta', 'gamma']);
    expect(names(sortItems(rows, { key: 'name', direction: 'desc' }, self))).toEqual(['gamma', 'beta', 'alpha', 'Alpha']);
  });
  it('sorts by status in lifecycle order, ties in the given order', () => {
    expect(names(sortItems(rows, { key: 'status', direction: 'asc' }, self))).toEqual(['Alpha', 'alpha', 'gamma', 'beta']);
  });
  it('sorts by last change, newest first; never-changed rows last', () => {
    expect(names(sortItems(rows, { key: 'lastChange', direction: 'desc' }, self))).toEqual(['Alpha', 'beta', 'gamma', 'alpha']);
  });
  it('leaves its input alone', () => {
    const copy = [...rows];
    sortItems(rows, { key: 'name', direction: 'desc' }, self);
    expect(rows).toEqual(copy);
  });
});

describe('nextSort', () => {
  it('flips the direction of the key in use and starts another key at its first direction', () => {
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'lastChange')).toEqual({ key: 'lastChange', direction: 'desc' });
    expect(nextSort({ key: 'lastChange', direction: 'desc' }, 'status')).toEqual({ key: 'status', direction: 'asc' });
  });
});
