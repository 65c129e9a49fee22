/**
 * The live events of one server process (docs/LIVE.md). It holds the process's open streams and, once the first one
 * opens, one listener on the database's live channel (db/client.ts `listen`: its own PostgreSQL connection, or the
 * embedded database in process), so a change committed by any process reaches every stream of every process.
 * Notifications are gathered into batches, at most one every BATCH_INTERVAL_MS; a batch reads what it needs once (item
 * states, viewers, ended jobs) and sends each stream only what its user may see (live-visibility.ts), each event's
 * frame made once and each user's share worked out once (live-fan-out.ts), in one write per stream. Pings every LIVE_HEARTBEAT_SECONDS; each stream's
 * session is checked again every SESSION_CHECK_MS (logout and disabled users end it) and at its token's expiry.
 */
import { LIVE_HEARTBEAT_SECONDS, type PresenceViewer } from '@bo/shared/live-events';
import type { Database } from '../../db/client.js';
import type { AuthUser } from '../../auth/auth.service.js';
import type { LiveObserver } from '../../plugins/metrics.js';
import { BatchFanOut } from './live-fan-out.js';
import { frameOf, joinFrames, type LiveFrames } from './live-frames.js';
import { NoticeBatch, refKey } from './live-notices.js';
import { LiveStream } from './live-stream.js';
import { itemScopes, mayViewItem } from './live-visibility.js';
import { endedJobs, itemStates, viewersOf, type ItemRef, type ItemState, type ViewerRow } from './live.repository.js';

/**
 * How often at most a process sends a batch. Each batch reads item states, scopes and viewers in every process and
 * writes once to each of its streams: the planners' saves pay for those reads and writes (docs/LIVE.md "Batches"), so
 * under a steady flow of changes a process sends two batches a second, however many changes there are. A change's event
 * then waits at most this long, well within its 1 s.
 */
const BATCH_INTERVAL_MS = 500;
/**
 * How long the first notification after a quiet spell waits for the ones that come with it (one commit notifies
 * several things: an item, its presence, a lost lock) before its batch is sent, when the last batch is older than
 * BATCH_INTERVAL_MS: an occasional change is shown at once.
 */
const GATHER_MS = 25;
/** How often each stream's session is checked again (a logout or a disabled user ends the stream within this). */
const SESSION_CHECK_MS = 30_000;

interface LiveHubOptions {
  database: Database;
  lockTtlMinutes: number;
  observer?: LiveObserver;
  log: { warn(extra: object, msg: string): void };
}

/** Frames for one stream and the batch they come from (null: not from a batch, no lag to measure). */
interface Delivery {
  frames: LiveFrames;
  batch: NoticeBatch | null;
}

/** How a stream's session is checked again: streams of one `key` (one token: a user's tabs) share one check. */
export interface SessionCheck {
  key: string;
  /** The user again, as a request would be authenticated now; null: the session ended. */
  recheck(): Promise<AuthUser | null>;
}

interface StreamSession extends SessionCheck {
  expiry: NodeJS.Timeout | undefined;
}

export class LiveHub {
  private readonly streams = new Map<LiveStream, StreamSession>();
  /**
   * Streams whose `hello` is not written yet, with what batches sent them meanwhile: written right after the hello, in
   * order. A frame before the hello would be undone by it (the browser replaces its presence map with the hello's
   * snapshot, which may have been read before that change).
   */
  private readonly awaitingHello = new Map<LiveStream, Delivery[]>();
  private listening: Promise<(() => Promise<void>) | null> | null = null;
  private batch: NoticeBatch | null = null;
  private batchTimer: NodeJS.Timeout | undefined;
  /** When the last batch was sent (performance.now()). */
  private lastBatchAt = -Infinity;
  private flushing: Promise<void> = Promise.resolve();
  private heartbeat: NodeJS.Timeout | undefined;
  private sessionCheck: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Events written since the start (tests and metrics). */
  readonly counts = { events: 0, notifications: 0 };

  constructor(private readonly opts: LiveHubOptions) {}

  get openStreams(): number {
    return this.streams.size;
  }

  /** The tabs of the streams open here (their presence is kept alive while they are). */
  tabIds(): string[] {
    return [...new Set([...this.streams.keys()].map((s) => s.tabId))];
  }

  /** Another stream of this tab is open here (a reconnection overlapping the old stream's end). */
  tabOpenElsewhere(stream: LiveStream): boolean {
    for (const s of this.streams.keys()) if (s !== stream && s.tabId === stream.tabId && s.isOpen) return true;
    return false;
  }

  /** Starts listening if not yet; resolves once notifications are received (a change committed after it is seen). */
  async ready(): Promise<void> {
    if (this.stopped) return;
    this.listening ??= this.opts.database
      .listen((payload) => this.receive(payload), {
        onReconnect: () => this.broadcastEverything(),
        onError: (err) => this.opts.log.warn({ err }, 'live events: the listening connection failed'),
      })
      .catch((err: unknown) => {
        this.opts.log.warn({ err }, 'live events: could not listen');
        this.listening = null;
        throw err;
      });
    await this.listening;
  }

  /** Adds an open stream; `session` is how its session is checked again, `expiresAt` its token's expiry (ms since the epoch). */
  add(stream: LiveStream, session: SessionCheck, expiresAt: number): void {
    const delay = Math.min(Math.max(expiresAt - Date.now(), 0), 2_000_000_000);
    const expiry = setTimeout(() => stream.close(), delay);
    expiry.unref();
    this.streams.set(stream, { key: session.key, recheck: session.recheck, expiry });
    this.awaitingHello.set(stream, []);
    stream.whenClosed(() => {
      clearTimeout(this.streams.get(stream)?.expiry);
      this.streams.delete(stream);
      this.awaitingHello.delete(stream);
      if (this.streams.size === 0) this.stopTimers();
    });
    this.startTimers();
  }

  /** Sends the first frame of a stream: every item visible to its user that someone has open. */
  async hello(stream: LiveStream): Promise<void> {
    const viewers = await viewersOf(this.opts.database.db, null);
    const refs = uniqueRefs(viewers);
    const states = await this.states(refs);
    const scopes = await itemScopes(this.opts.database.db, [...states.values()]);
    const byItem = groupViewers(viewers);
    const presence = refs
      .filter((r) => mayViewItem(stream.user.grants, scopes.get(refKey(r))))
      .map((r) => ({ kind: r.kind, name: r.name, monthId: r.monthId, viewers: byItem.get(refKey(r)) ?? [] }));
    const held = this.awaitingHello.get(stream) ?? [];
    this.awaitingHello.delete(stream);
    this.write(stream, [{ frames: joinFrames([frameOf({ type: 'hello', data: { tabId: stream.tabId, presence } })]), batch: null }, ...held]);
  }

  /** Ends every stream (the server drains before a stop: an open stream would hold it). */
  closeAll(): void {
    for (const stream of [...this.streams.keys()]) stream.close();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.closeAll();
    this.stopTimers();
    clearTimeout(this.batchTimer);
    const listening = this.listening;
    this.listening = null;
    const unlisten = await listening?.catch(() => null);
    await unlisten?.();
  }

  /** One notification of the live channel. */
  receive(payload: string): void {
    this.counts.notifications += 1;
    if (this.streams.size === 0) return;
    const batch = (this.batch ??= new NoticeBatch());
    if (!batch.add(payload)) {
      this.opts.log.warn({ payload: payload.slice(0, 200) }, 'live events: a notification that is not one');
      return;
    }
    this.batchTimer ??= setTimeout(() => this.sendBatch(), Math.max(GATHER_MS, this.lastBatchAt + BATCH_INTERVAL_MS - performance.now()));
  }

  private sendBatch(): void {
    this.batchTimer = undefined;
    const ready = this.batch;
    this.batch = null;
    if (!ready) return;
    this.lastBatchAt = performance.now();
    // One batch at a time, in order: a later batch never overtakes an earlier one.
    this.flushing = this.flushing.then(() =>
      this.flush(ready).catch((err: unknown) => this.opts.log.warn({ err }, 'live events: a batch could not be sent')),
    );
  }

  /** After a lost listening connection: anything may have changed meanwhile, every list refetches. */
  private broadcastEverything(): void {
    const frames = joinFrames([frameOf({ type: 'scope', data: { monthId: '*', brand: '*' } })]);
    for (const stream of this.streams.keys()) this.deliver(stream, { frames, batch: null });
  }

  private async flush(batch: NoticeBatch): Promise<void> {
    if (this.streams.size === 0) return;
    const db = this.opts.database.db;
    const refs = batch.refs();
    const [states, viewers, jobs] = await Promise.all([this.states(refs), viewersOf(db, [...batch.presence.values()]), endedJobs(db, [...batch.jobIds])]);
    const scopes = await itemScopes(db, [...states.values()]);
    const fanOut = new BatchFanOut(batch, { states, scopes, viewers: groupViewers(viewers), jobs });
    for (const stream of [...this.streams.keys()]) this.deliver(stream, { frames: fanOut.framesFor(stream.user), batch });
  }

  private async states(refs: readonly ItemRef[]): Promise<Map<string, ItemState>> {
    const db = this.opts.database.db;
    const ttl = this.opts.lockTtlMinutes;
    const [modules, clusters] = await Promise.all([
      itemStates(db, 'module', refs.filter((r) => r.kind === 'module'), ttl),
      itemStates(db, 'cluster', refs.filter((r) => r.kind === 'cluster'), ttl),
    ]);
    return new Map([...modules, ...clusters].map((s) => [refKey(s), s]));
  }

  /** Writes frames to a stream, or holds them until its hello is written. */
  private deliver(stream: LiveStream, delivery: Delivery): void {
    if (delivery.frames.frames.length === 0) return;
    const held = this.awaitingHello.get(stream);
    if (held) held.push(delivery);
    else this.write(stream, [delivery]);
  }

  /**
   * Writes deliveries to a stream in one write, and counts their events: by type (one count per type and delivery,
   * its frames counted once when their user's share was made) and the lag (one observation per delivery of a batch:
   * its events share it).
   */
  private write(stream: LiveStream, deliveries: readonly Delivery[]): void {
    const all = deliveries.length === 1 ? deliveries[0]!.frames : joinFrames(deliveries.flatMap((d) => d.frames.frames));
    if (!stream.send(all)) return;
    const observer = this.opts.observer;
    const now = performance.now();
    for (const { frames, batch } of deliveries) {
      this.counts.events += frames.frames.length;
      for (const [type, n] of frames.byType) observer?.sent(type, n);
      if (batch) observer?.lag((now - batch.since) / 1000);
    }
  }

  private startTimers(): void {
    if (!this.heartbeat) {
      this.heartbeat = setInterval(() => {
        for (const stream of this.streams.keys()) stream.ping();
      }, LIVE_HEARTBEAT_SECONDS * 1000);
      this.heartbeat.unref();
    }
    if (!this.sessionCheck) {
      this.sessionCheck = setInterval(() => void this.checkSessions(), SESSION_CHECK_MS);
      this.sessionCheck.unref();
    }
  }

  private stopTimers(): void {
    clearInterval(this.heartbeat);
    clearInterval(this.sessionCheck);
    this.heartbeat = undefined;
    this.sessionCheck = undefined;
  }

  /** Ends the streams whose session ended (logout, disabled user, no grants left); the others get their grants anew. */
  private async checkSessions(): Promise<void> {
    // One check per session, however many of its streams are open here (a user's tabs share their token): 500
    // streams of 10 users cost 10 session reads per round, not 500.
    const checked = new Map<string, Promise<AuthUser | null>>();
    for (const [stream, session] of [...this.streams]) {
      if (!stream.isOpen) continue;
      try {
        let check = checked.get(session.key);
        if (!check) checked.set(session.key, (check = session.recheck()));
        const user = await check;
        if (user) stream.user = user;
        else stream.close();
      } catch (err) {
        this.opts.log.warn({ err }, 'live events: a session check failed');
      }
    }
  }

  /** For tests: runs the session checks now. */
  checkSessionsNow(): Promise<void> {
    return this.checkSessions();
  }
}

function uniqueRefs(rows: readonly ItemRef[]): ItemRef[] {
  const out = new Map<string, ItemRef>();
  for (const r of rows) out.set(refKey(r), { kind: r.kind, name: r.name, monthId: r.monthId });
  return [...out.values()];
}

function groupViewers(rows: readonly ViewerRow[]): Map<string, PresenceViewer[]> {
  const out = new Map<string, PresenceViewer[]>();
  for (const r of rows) {
    const displayName = `${r.firstName} ${r.lastName}`.trim() || r.username;
    const list = out.get(refKey(r)) ?? [];
    list.push({ username: r.username, displayName, mode: r.mode, since: r.since });
    out.set(refKey(r), list);
  }
  return out;
}
