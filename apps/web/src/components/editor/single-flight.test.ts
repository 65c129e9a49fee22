import { describe, expect, it } from 'vitest';
import { createSingleFlight } from './single-flight';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((ok, ko) => {
    resolve = ok;
    reject = ko;
  });
  return { promise, resolve, reject };
}

describe('createSingleFlight', () => {
  it('ignores a second call of the same key while the first runs, then accepts the next one', async () => {
    const flight = createSingleFlight();
    const gate = deferred();
    let runs = 0;
    const work = async () => {
      runs++;
      await gate.promise;
      return runs;
    };
    const first = flight('save', work);
    const second = flight('save', work);
    expect(runs).toBe(1);
    gate.resolve();
    expect(await first).toBe(1);
    expect(await second).toBeUndefined();
    expect(await flight('save', work)).toBe(2);
  });

  it('runs different keys side by side, and frees a key whose run failed', async () => {
    const flight = createSingleFlight();
    const gate = deferred();
    const a = flight('A', () => gate.promise);
    expect(await flight('B', async () => 'b')).toBe('b');
    gate.reject(new Error('refused'));
    await expect(a).rejects.toThrow('refused');
    expect(await flight('A', async () => 'again')).toBe('again');
  });
});
