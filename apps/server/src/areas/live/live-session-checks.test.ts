import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../../auth/auth.service.js';
import type { Database } from '../../db/client.js';
import { LiveHub } from './live-hub.js';
import { LiveStream } from './live-stream.js';
import { ResponseSink } from '../../../test/response-sink.js';

const user = (username: string): AuthUser => ({ userId: 1, username, email: '', firstName: '', lastName: '', role: 'VIEWER', grants: [] });

describe('LiveHub session checks', () => {
  it('checks each session once however many of its streams are open, and ends them all when it ended', async () => {
    const hub = new LiveHub({ database: {} as Database, lockTtlMinutes: 30, log: { warn: () => undefined } });
    const calls = { anna: 0, bruno: 0 };
    let annaSignedIn = true;
    const open = (name: 'anna' | 'bruno', tab: string) => {
      const stream = new LiveStream(new ResponseSink().response, user(name), tab);
      const recheck = async () => {
        calls[name] += 1;
        return name === 'anna' && !annaSignedIn ? null : user(name);
      };
      hub.add(stream, { key: `token-of-${name}`, recheck }, Date.now() + 3_600_000);
      return stream;
    };
    const anna = [open('anna', 't1'), open('anna', 't2'), open('anna', 't3')];
    const bruno = open('bruno', 't4');

    await hub.checkSessionsNow();
    expect(calls).toEqual({ anna: 1, bruno: 1 });
    // The streams of one session share the user the check read (one object: the fan-out works it out once).
    expect(anna[1]!.user).toBe(anna[0]!.user);
    expect(anna.every((s) => s.isOpen)).toBe(true);

    annaSignedIn = false;
    await hub.checkSessionsNow();
    expect(calls).toEqual({ anna: 2, bruno: 2 });
    expect(anna.some((s) => s.isOpen)).toBe(false);
    expect(bruno.isOpen).toBe(true);
    expect(hub.openStreams).toBe(1);
    await hub.stop();
  });
});
