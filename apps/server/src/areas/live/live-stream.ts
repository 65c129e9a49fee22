/**
 * One open event stream (GET /api/events): the raw HTTP answer it writes Server-Sent Events frames to, the user it
 * belongs to (grants refreshed at each session check) and its tab. Writes are fire-and-forget: a client that does not
 * read (its socket buffer full past MAX_BUFFERED_BYTES) is cut, and reconnects when it can.
 */
import type { ServerResponse } from 'node:http';
import type { AuthUser } from '../../auth/auth.service.js';
import type { LiveFrames } from './live-frames.js';

/** Past this much unsent output the client is not reading: its stream is closed rather than held in memory. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export class LiveStream {
  private closed = false;
  private readonly onClose: (() => void)[] = [];

  constructor(
    private readonly raw: ServerResponse,
    public user: AuthUser,
    readonly tabId: string,
  ) {
    // The client went away: its socket goes too (a half-closed one would otherwise hold a server's close until the
    // keep-alive timeout).
    raw.once('close', () => {
      raw.socket?.destroy();
      this.finish();
    });
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Runs `fn` once when the stream ends, whoever ends it (the client, the server, a failed write). */
  whenClosed(fn: () => void): void {
    if (this.closed) fn();
    else this.onClose.push(fn);
  }

  /** Writes event frames (live-frames.ts) in one write; false when the stream is closed. */
  send(frames: LiveFrames): boolean {
    return this.write(frames.text);
  }

  /** A comment line: keeps proxies from cutting an idle stream, and finds dead connections. */
  ping(): boolean {
    return this.write(': ping\n\n');
  }

  close(): void {
    if (this.closed) return;
    // A stream's connection is its own: it is not kept alive for another request once the stream ends.
    this.raw.end(() => this.raw.socket?.destroy());
    this.finish();
  }

  private write(text: string): boolean {
    if (this.closed) return false;
    if (this.raw.writableLength > MAX_BUFFERED_BYTES) {
      this.raw.destroy();
      this.finish();
      return false;
    }
    this.raw.write(text);
    return true;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const fn of this.onClose.splice(0)) {
      try {
        fn();
      } catch {
        /* a close handler's failure must not keep the others from running */
      }
    }
  }
}
