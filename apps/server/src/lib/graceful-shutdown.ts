import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Starts draining (see registerDraining); resolves once no request admitted before it is in flight. */
    drainRequests(): Promise<void>;
    /** Runs `fn` when draining starts: answers that never end by themselves (the live event streams) end then. */
    addDrainHook(fn: () => void): void;
  }
}

const SHUTTING_DOWN = 'The server is shutting down. Please try again in a moment.';

/**
 * Before the listener closes, it waits for a moment without new connections (at most QUIET_MAX_MS): a
 * connection accepted but not yet read, or still waiting to be accepted, is reset by the close.
 */
const QUIET_MS = 50;
const QUIET_MAX_MS = 500;
/** After the listener closes, how long a connection that has not sent a whole request may hold the stop. */
const LINGER_MS = 1000;
/** How long a stop that has drained (or given up draining) waits for the database to close. */
const DATABASE_CLOSE_GRACE_MS = 2000;

/**
 * Draining before a stop. Fastify's close alone drops the connections idle at that moment, but a
 * keep-alive connection busy then stayed open after its answer (keepAliveTimeout, 72 s), so the close
 * never finished. While draining, the server keeps listening but admits nothing: every new request
 * gets 503 with the usual error body (Fastify's own 503 is off in app.ts: its body is another shape),
 * every answer says `Connection: close`, and idle connections are closed at once. Once the requests
 * admitted before have answered and new connections have paused, `app.close()` closes the listener
 * and whatever is left idle (shutdown() below).
 * Registered before the routes: hooks added later do not reach the routes of plugins already registered.
 */
export function registerDraining(app: FastifyInstance): void {
  let draining = false;
  let inFlight = 0;
  let allAnswered: (() => void) | null = null;
  const drainHooks: (() => void)[] = [];
  app.decorate('addDrainHook', (fn: () => void) => {
    drainHooks.push(fn);
  });

  app.addHook('onRequest', (_request, reply, next) => {
    if (draining) {
      // Answered here rather than thrown: the error would go through the route's own 503 schema (health has one).
      // A hook that answers does not call next().
      reply
        .code(503)
        .header('connection', 'close')
        .serializer((payload: unknown) => JSON.stringify(payload))
        .send({ error: 'serviceUnavailable', message: SHUTTING_DOWN });
      return;
    }
    inFlight++;
    let done = false;
    const answered = () => {
      if (done) return;
      done = true;
      inFlight--;
      if (draining && inFlight === 0) allAnswered?.();
    };
    // 'close' also comes when the client goes away before the answer; 'finish' covers inject's responses.
    reply.raw.once('close', answered);
    reply.raw.once('finish', answered);
    next();
  });
  app.addHook('onSend', (_request, reply, _payload, done) => {
    if (draining) reply.header('connection', 'close');
    done();
  });
  app.decorate('drainRequests', async () => {
    draining = true;
    for (const hook of drainHooks) hook();
    let lastConnectionAt = Date.now();
    app.server.on('connection', () => (lastConnectionAt = Date.now()));
    // A request already sent on an idle keep-alive connection is read only on a later turn of the event
    // loop; closing the connection before that resets it instead of answering 503.
    await loopTurns();
    app.server.closeIdleConnections();
    if (inFlight > 0) await new Promise<void>((resolve) => (allAnswered = resolve));
    // Clients answered 503 come back at once on a new connection; the embedded database keeps the loop
    // busy, so connections also wait to be accepted. Both get their 503 before the listener closes.
    const until = Date.now() + QUIET_MAX_MS;
    await loopTurns();
    while (Date.now() - lastConnectionAt < QUIET_MS && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      await loopTurns();
    }
  });
}

/** Lets the event loop accept waiting connections and read what they sent. */
async function loopTurns(turns = 3): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
}

interface ShutdownOptions {
  app: FastifyInstance;
  database: Database;
  /** SHUTDOWN_TIMEOUT_MS: how long requests in flight (and the job in hand) may take to finish. */
  timeoutMs: number;
  exit?: (code: number) => void;
}

/** Stops on SIGTERM and SIGINT (once: a second signal while stopping is only logged). */
export function stopOnSignals(opts: ShutdownOptions): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      opts.app.log.warn({ signal }, 'already shutting down');
      return;
    }
    stopping = true;
    void shutdown(opts, signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/**
 * Drains the HTTP server and the job runner side by side, then closes the database and exits: 0 when
 * everything finished within `timeoutMs`; past it, the remaining connections are cut, the database is
 * still closed (bounded by a short grace) and the exit code is 1.
 */
export async function shutdown({ app, database, timeoutMs, exit = (code) => process.exit(code) }: ShutdownOptions, signal: string): Promise<void> {
  const started = Date.now();
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timedOut'>((resolve) => {
    timer = setTimeout(() => resolve('timedOut'), timeoutMs);
  });
  const http = app.drainRequests().then(() => {
    app.log.info({ ms: Date.now() - started }, 'requests in flight answered');
    const closed = app.close();
    const listenerClosed = stoppedListening(app).then(() => app.log.info('listener closed'));
    // A connection still sending its first request (slowly, or never) must not hold the stop.
    const linger = setTimeout(() => {
      app.log.warn('closing connections that did not send a whole request');
      app.server.closeAllConnections();
    }, LINGER_MS);
    return Promise.all([closed, listenerClosed]).finally(() => clearTimeout(linger));
  });
  const drained = Promise.all([http, app.jobs.stop()]).then(
    () => 'drained' as const,
    (err: unknown) => {
      app.log.error({ err }, 'shutdown failed');
      return 'failed' as const;
    },
  );
  const outcome = await Promise.race([drained, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timedOut') {
    app.log.error({ timeoutMs }, 'shutdown timed out: closing the remaining connections');
    app.server.closeAllConnections();
  }
  const databaseClosed = await closeDatabase(app, database);
  app.log.info({ ms: Date.now() - started }, 'stopped');
  exit(outcome === 'drained' && databaseClosed ? 0 : 1);
}

/** Fastify closes the listener a few ticks into `close()`, once its preClose hooks have run. */
async function stoppedListening(app: FastifyInstance): Promise<void> {
  while (app.server.listening) await new Promise((resolve) => setTimeout(resolve, 2));
}

async function closeDatabase(app: FastifyInstance, database: Database): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), DATABASE_CLOSE_GRACE_MS);
  });
  try {
    // A PostgreSQL pool ends only once every client is back: a query still running holds it up.
    const closed = await Promise.race([database.close().then(() => true as const), gaveUp]);
    if (closed) app.log.info({ database: database.kind }, 'database closed');
    else app.log.error({ database: database.kind, graceMs: DATABASE_CLOSE_GRACE_MS }, 'database did not close in time');
    return closed;
  } catch (err) {
    app.log.error({ err }, 'closing the database failed');
    return false;
  } finally {
    clearTimeout(timer);
  }
}
