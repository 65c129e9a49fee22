import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

/**
 * A ServerResponse as a LiveStream (areas/live/live-stream.ts) uses it, with nobody at the other end: it counts what
 * is written and, while `record` is on, keeps each write with the time it came (performance.now()). Ends when told.
 */
export class ResponseSink extends EventEmitter {
  writes = 0;
  chars = 0;
  record = false;
  readonly recorded: { at: number; text: string }[] = [];
  readonly writableLength = 0;
  readonly socket = null;

  write(chunk: string | Buffer): boolean {
    this.writes += 1;
    this.chars += chunk.length;
    if (this.record) this.recorded.push({ at: performance.now(), text: String(chunk) });
    return true;
  }
  end(done?: () => void): void {
    done?.();
  }
  destroy(): void {}

  /** What was recorded, as one text. */
  get text(): string {
    return this.recorded.map((r) => r.text).join('');
  }

  /** Forgets what was recorded. */
  forget(): void {
    this.recorded.length = 0;
  }

  /** This sink as the response a LiveStream writes to. */
  get response(): ServerResponse {
    return this as unknown as ServerResponse;
  }
}
