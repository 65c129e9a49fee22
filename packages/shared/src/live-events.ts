/**
 * The live event stream (issue 36; docs/LIVE.md): one authenticated stream per browser tab, `GET /api/events`,
 * answered as Server-Sent Events (`text/event-stream`). The browser reads it with fetch (EventSource cannot send
 * the `Authorization: Bearer` header) and reconnects by itself.
 *
 * Every frame is `event: <type>` + `data: <json of that type's schema>`; a comment line (`: ping`) is sent every
 * LIVE_HEARTBEAT_SECONDS so a proxy never cuts an idle stream. A stream carries only events about items the
 * user may see (the lists' visibility rules: brand grants and stars zones) and the user's own jobs and locks.
 */
import { z } from 'zod';

export const LIVE_EVENTS_PATH = '/api/events';
/** Replaces what one tab has open (PUT) and keeps it alive; DELETE `${PRESENCE_PATH}/:tabId` when the tab closes. */
export const PRESENCE_PATH = '/api/presence';

/** Seconds between two heartbeat comments on an idle stream. */
export const LIVE_HEARTBEAT_SECONDS = 15;
/** How often an open page renews its presence (and, with it, the locks it holds). */
export const PRESENCE_RENEW_SECONDS = 30;

export const liveItemKind = z.enum(['module', 'cluster']);
export type LiveItemKind = z.infer<typeof liveItemKind>;

/** An item-month: a module by its name, a cluster by its cluster id. */
const liveItemRef = z.object({ kind: liveItemKind, name: z.string(), monthId: z.string() });
export type LiveItemRef = z.infer<typeof liveItemRef>;

const presenceMode = z.enum(['editing', 'viewing']);
export type PresenceMode = z.infer<typeof presenceMode>;

/** Someone who has an item open. */
const presenceViewer = z.object({
  username: z.string(),
  /** First and last name, as the user menu shows them (the username when none). */
  displayName: z.string(),
  mode: presenceMode,
  /** ISO time the item was opened in that tab. */
  since: z.string(),
});
export type PresenceViewer = z.infer<typeof presenceViewer>;

/** PUT /api/presence: everything one tab has open now (an empty list: nothing). */
export const presenceBody = z.object({
  tabId: z.uuid(),
  items: z.array(liveItemRef.extend({ mode: presenceMode })).max(200),
});
export type PresenceBody = z.infer<typeof presenceBody>;

/** `hello`: first frame of every stream; `presence` lists every item visible to the user that someone has open. */
const helloEvent = z.object({ tabId: z.string(), presence: z.array(liveItemRef.extend({ viewers: z.array(presenceViewer) })) });

/**
 * `item`: an item-month changed (its lock, status, content, deletion state…). `lockedBy` is its live lock holder
 * after the change (null: free); `savedAt` the time of its last saved version, when known, and `savedBy` who saved
 * that version (the server always sends it; optional only so that a browser still reads an older server's events).
 * `version` is the item's optimistic version after the change (bumped by every write, as in its DTO): an editor that
 * loaded an older one shows a newer version was saved, whatever the clocks of the server and the browser say.
 * Lists refetch what shows it.
 */
export const itemEvent = liveItemRef.extend({
  brand: z.string(),
  version: z.number().int(),
  lockedBy: z.string().nullable(),
  savedAt: z.string().nullable(),
  savedBy: z.string().nullable().optional(),
  status: z.string().nullable(),
});

/**
 * `scope`: many items of one month and brand changed at once (a release load, an import, a bulk job): lists of that
 * month and brand refetch. `brand` '*' stands for every brand of the month, `monthId` '*' for every month.
 */
export const scopeEvent = z.object({ monthId: z.string(), brand: z.string() });

/** `presence`: who has one item open now (an empty list: nobody). */
const presenceEvent = liveItemRef.extend({ viewers: z.array(presenceViewer) });

/** `job`: one of the user's own jobs ended (only its owner receives it). */
export const jobEvent = z.object({
  id: z.string(),
  /** The job's type as the jobs table names it (export, import, release-load, massive-edit, copy, publish…). */
  type: z.string(),
  status: z.enum(['DONE', 'FAILED']),
  /** One line for the notification, in product words. */
  title: z.string(),
  /** Where in the product the result is (e.g. '/history' for an export): a path of the web app, or null. */
  link: z.string().nullable(),
});

/** `lockLost`: a lock the user held was taken from them (forced unlock) or lapsed. */
const lockLostEvent = liveItemRef.extend({ by: z.string().nullable(), reason: z.enum(['forced', 'lapsed']) });

export const liveEvents = {
  hello: helloEvent,
  item: itemEvent,
  scope: scopeEvent,
  presence: presenceEvent,
  job: jobEvent,
  lockLost: lockLostEvent,
} as const;
export type LiveEventType = keyof typeof liveEvents;
export type LiveEvent = { [T in LiveEventType]: { type: T; data: z.infer<(typeof liveEvents)[T]> } }[LiveEventType];
