import { describe, expect, it } from 'vitest';
import { workerCount } from './workers.js';

describe('workerCount (WORKERS)', () => {
  it('defaults to 1 on the embedded database and to the cores on PostgreSQL', () => {
    expect(workerCount({}, 4)).toBe(1);
    expect(workerCount({ DATABASE_URL: '' }, 4)).toBe(1);
    expect(workerCount({ DATABASE_URL: 'postgres://x/y' }, 4)).toBe(4);
  });

  it('takes WORKERS as given on PostgreSQL, and 1 anywhere', () => {
    expect(workerCount({ DATABASE_URL: 'postgres://x/y', WORKERS: 3 }, 8)).toBe(3);
    expect(workerCount({ DATABASE_URL: 'postgres://x/y', WORKERS: 1 }, 8)).toBe(1);
    expect(workerCount({ WORKERS: 1 }, 8)).toBe(1);
  });

  it('refuses more than one process on the embedded database', () => {
    expect(() => workerCount({ WORKERS: 2 }, 8)).toThrow(/WORKERS=2 needs DATABASE_URL/);
  });
});
