/**
 * One batch's events fanned out to the streams (docs/LIVE.md "Fan-out"): each event's frame is made once, and what a
 * user may see of the batch is worked out once per user (their username and grants), however many streams they have
 * open. Each stream then gets its user's frames in one write.
 */
import type { PresenceViewer } from '@bo/shared/live-events';
import { sameUser, type ItemScope } from '@bo/shared/permissions';
import type { AuthUser } from '../../auth/auth.service.js';
import { jobNotice } from './job-notices.js';
import { frameOf, joinFrames, type LiveFrame, type LiveFrames } from './live-frames.js';
import { refKey, type NoticeBatch } from './live-notices.js';
import { mayViewItem, mayViewScope } from './live-visibility.js';
import type { EndedJob, ItemRef, ItemState } from './live.repository.js';

/** What a batch read once: item states, their permission scopes and their viewers by refKey; the jobs that ended. */
export interface BatchReads {
  states: ReadonlyMap<string, ItemState>;
  scopes: ReadonlyMap<string, ItemScope>;
  viewers: ReadonlyMap<string, PresenceViewer[]>;
  jobs: readonly EndedJob[];
}

/** One event of the batch and who gets it. */
interface Candidate {
  frame: LiveFrame;
  to(user: AuthUser): boolean;
}

/**
 * A user's identity for the fan-out: two streams with the same username and grants get the same frames. Kept per user
 * object (a stream's user is replaced, never changed, when its session is checked again).
 */
const userKeys = new WeakMap<AuthUser, string>();

function userKey(user: AuthUser): string {
  let key = userKeys.get(user);
  if (key === undefined) {
    key = `${user.username}\u0000${JSON.stringify(user.grants)}`;
    userKeys.set(user, key);
  }
  return key;
}

export class BatchFanOut {
  /** Every event of the batch, in the order a stream gets them: items, scopes, presence, lost locks, ended jobs. */
  private readonly candidates: Candidate[] = [];
  private readonly byUser = new Map<string, LiveFrames>();

  constructor(batch: NoticeBatch, { states, scopes, viewers, jobs }: BatchReads) {
    const visible = (user: AuthUser, r: ItemRef) => mayViewItem(user.grants, scopes.get(refKey(r)));
    const add = (frame: LiveFrame, to: (user: AuthUser) => boolean) => this.candidates.push({ frame, to });
    for (const ref of batch.items.values()) {
      const state = states.get(refKey(ref));
      if (!state) continue;
      const { kind, name, monthId, brandCode: brand, version, lockedBy, savedAt, savedBy, status } = state;
      add(frameOf({ type: 'item', data: { kind, name, monthId, brand, version, lockedBy, savedAt, savedBy, status } }), (user) => visible(user, ref));
    }
    for (const scope of batch.scopes.values()) add(frameOf({ type: 'scope', data: scope }), (user) => mayViewScope(user.grants, scope.brand));
    for (const ref of batch.presence.values()) {
      const data = { kind: ref.kind, name: ref.name, monthId: ref.monthId, viewers: viewers.get(refKey(ref)) ?? [] };
      add(frameOf({ type: 'presence', data }), (user) => visible(user, ref));
    }
    for (const loss of batch.lockLosses) {
      const data = { kind: loss.kind, name: loss.name, monthId: loss.monthId, by: loss.by, reason: loss.reason };
      // Only the former holder hears of it, and only of an item they may still see (or one gone altogether).
      add(frameOf({ type: 'lockLost', data }), (user) => sameUser(loss.owner, user.username) && (!states.has(refKey(loss)) || visible(user, loss)));
    }
    for (const job of jobs) add(frameOf({ type: 'job', data: jobNotice(job) }), (user) => sameUser(job.createdBy, user.username));
  }

  /** The frames of the batch this user may see, in the batch's order (none: an empty list). */
  framesFor(user: AuthUser): LiveFrames {
    const key = userKey(user);
    let frames = this.byUser.get(key);
    if (!frames) {
      frames = joinFrames(this.candidates.filter((c) => c.to(user)).map((c) => c.frame));
      this.byUser.set(key, frames);
    }
    return frames;
  }
}
