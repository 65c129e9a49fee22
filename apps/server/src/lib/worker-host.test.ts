/**
 * The background workers' host (worker-host.ts with worker-sessions.ts), on a worker of its own that echoes text
 * (worker-host.test-worker.ts): what the export worker and the stage worker rely on.
 */
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKGROUND_NICE } from './background-nice.js';
import { WorkerHost } from './worker-host.js';

const host = new WorkerHost<{ upper: boolean }, string, number>('echo worker', import.meta.url, 'worker-host.test-worker');
afterAll(() => host.stop());

function openEcho(upper: boolean) {
  const out: string[] = [];
  const session = host.open({ upper }, (chunk) => out.push(chunk.toString()));
  return { session, out };
}

describe('WorkerHost', () => {
  it('runs sessions side by side in one worker: each gets its own bytes, in order, and its result', async () => {
    const before = host.finished;
    const a = openEcho(true);
    const b = openEcho(false);
    await a.session.add('one');
    await b.session.add('two');
    await a.session.add('three');
    expect(await a.session.finish()).toBe(2);
    expect(await b.session.finish()).toBe(1);
    expect(a.out.join('|')).toBe('ONE|THREE');
    expect(b.out.join('|')).toBe('two');
    expect(host.finished).toBe(before + 2);
    expect(host.lastResult).toBe(1);
  });

  it('runs in a process of its own, every thread of it (the garbage collector’s helpers too) at the background priority', async () => {
    const { session } = openEcho(false);
    await session.add('x');
    const pid = host.pid!;
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    if (existsSync(`/proc/${pid}/task`)) {
      // On Linux a thread's id is a process id to getpriority: each thread's own nice value.
      const nices = readdirSync(`/proc/${pid}/task`).map((tid) => os.getPriority(Number(tid)));
      expect(nices.length).toBeGreaterThan(4);
      expect(nices.every((n) => n >= BACKGROUND_NICE)).toBe(true);
    }
    expect(await session.finish()).toBe(1);
  });

  it('takes one call at a time per session', async () => {
    const { session } = openEcho(false);
    const first = session.add('a');
    await expect(session.add('b')).rejects.toThrow(/one call at a time/);
    await first;
    expect(await session.finish()).toBe(1);
    await expect(session.add('c')).rejects.toThrow(/closed/);
  });

  it('rejects the call an aborted session was waiting for, and refuses calls after it', async () => {
    const { session } = openEcho(false);
    const waiting = session.add('in flight');
    session.abort();
    await expect(waiting).rejects.toThrow(/aborted/);
    await expect(session.add('after')).rejects.toThrow(/aborted/);
    session.abort();
  });

  it('fails only the session whose work failed, with the worker’s message; the others go on', async () => {
    const failing = openEcho(false);
    const other = openEcho(false);
    await expect(failing.session.add('fail')).rejects.toThrow('asked to fail');
    await expect(failing.session.finish()).rejects.toThrow('asked to fail');
    await other.session.add('still here');
    expect(await other.session.finish()).toBe(1);
    expect(other.out).toEqual(['still here']);
  });

  it('fails every open session when the worker dies, and starts a new worker for the next one', async () => {
    const crashing = openEcho(false);
    const bystander = openEcho(false);
    await bystander.session.add('before');
    await expect(crashing.session.add('crash')).rejects.toThrow(/The echo worker stopped \(exit code 3\)/);
    await expect(bystander.session.finish()).rejects.toThrow(/The echo worker stopped/);
    const next = openEcho(true);
    await next.session.add('again');
    expect(await next.session.finish()).toBe(1);
    expect(next.out).toEqual(['AGAIN']);
  });
});
