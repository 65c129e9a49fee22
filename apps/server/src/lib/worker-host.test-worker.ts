/**
 * A background worker for worker-host.test.ts: each session echoes the texts it is given (in capitals when opened
 * with `upper`) and answers how many it echoed; `fail` throws in the session, `crash` ends the whole worker.
 */
import { serveSessions } from './worker-sessions.js';

serveSessions<{ upper: boolean }, string, number>('worker-host.test-worker.ts', (options, out) => {
  let echoed = 0;
  return {
    add(text) {
      if (text === 'crash') process.exit(3);
      if (text === 'fail') throw new Error('asked to fail');
      out(Buffer.from(options.upper ? text.toUpperCase() : text));
      echoed++;
    },
    finish: () => echoed,
  };
});
