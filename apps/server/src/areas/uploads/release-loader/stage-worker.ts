/**
 * The stage worker (a child process of the server; fast-stage.repository.ts starts it through lib/worker-host.ts): it
 * types the lines of a release file for the fast way's COPY (stage-typer.ts), so that this CPU work — about a
 * second per 100,000 lines on our machines — never holds the thread that answers the planners' requests,
 * nor competes with it at its priority (docs/performance.md "Off the main thread"). One session is one file: the server reads its bytes from
 * the stored upload and sends them here chunk by chunk; the typed rows go back, and the server writes them
 * to the COPY.
 */
import { serveSessions } from '../../../lib/worker-sessions.js';
import { FileTyper, type StageOptions, type StageResult } from './stage-typer.js';

serveSessions<StageOptions, Uint8Array, StageResult>('stage-worker.ts', (options, out) => {
  const typer = new FileTyper(options.kind, Buffer.from(options.head.buffer, options.head.byteOffset, options.head.byteLength));
  return {
    add(chunk) {
      out(typer.feed(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
    },
    finish() {
      const { last, result } = typer.end();
      out(last);
      return result;
    },
  };
});
