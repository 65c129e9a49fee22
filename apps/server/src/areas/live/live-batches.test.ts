import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthUser } from '../../auth/auth.service.js';
import type { Database } from '../../db/client.js';
import { LiveHub } from './live-hub.js';
import { LiveStream } from './live-stream.js';
import { ResponseSink } from '../../../test/response-sink.js';

const user: AuthUser = { userId: 1, username: 'anna', email: '', firstName: '', lastName: '', role: 'VIEWER', grants: [] };
/** A database that answers every read with no row (scope events need none). */
const database = { db: { execute: async () => ({ rows: [] }) } } as unknown as Database;
const scope = (monthId: string) => JSON.stringify({ s: [[monthId, '*']] });

describe('LiveHub batches', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('sends an occasional change at once, and at most one batch every 500 ms under a steady flow', async () => {
    const hub = new LiveHub({ database, lockTtlMinutes: 30, log: { warn: () => undefined } });
    const sink = new ResponseSink();
    sink.record = true;
    const stream = new LiveStream(sink.response, user, 'tab-1');
    hub.add(stream, { key: 'token', recheck: async () => user }, Date.now() + 3_600_000);
    await hub.hello(stream);
    const batches = () => sink.recorded.filter((w) => w.text.includes('event: scope'));

    // After a quiet spell: sent once the gathering time (25 ms) is over, not after a window.
    const first = performance.now();
    hub.receive(scope('M01_2027'));
    await vi.advanceTimersByTimeAsync(24);
    expect(batches()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches()).toHaveLength(1);
    expect(batches()[0]!.at - first).toBe(25);

    // A steady flow: a notification every 20 ms for 1.2 s, then nothing.
    for (let i = 0; i < 60; i++) {
      hub.receive(scope(`M${String((i % 12) + 1).padStart(2, '0')}_2028`));
      await vi.advanceTimersByTimeAsync(20);
    }
    await vi.advanceTimersByTimeAsync(1000);
    const sent = batches();
    // Every notification arrived (each month named in a frame), in batches 500 ms apart: 25, 525, 1025 and 1525 ms
    // after the first (the flow ran from 25 to 1225 ms), not sixty.
    for (let m = 1; m <= 12; m++) expect(sent.some((w) => w.text.includes(`M${String(m).padStart(2, '0')}_2028`))).toBe(true);
    expect(sent.map((w) => w.at - first)).toEqual([25, 525, 1025, 1525]);

    // Quiet again for longer than 500 ms: the next change goes after the gathering time only.
    const later = performance.now();
    hub.receive(scope('M02_2027'));
    await vi.advanceTimersByTimeAsync(25);
    expect(batches()).toHaveLength(5);
    expect(batches()[4]!.at - later).toBe(25);
    await hub.stop();
  });
});
