/**
 * Server-Sent Events frames of live events, each made once however many streams it is written to: `event: <type>`,
 * `data: <json>`, a blank line (docs/LIVE.md "The stream").
 */
import type { LiveEvent } from '@bo/shared/live-events';

/** One event's frame and its type (the metrics count events by type). */
export interface LiveFrame {
  type: LiveEvent['type'];
  text: string;
}

/** Frames written together, in order, with their text joined: one write on a stream. */
export interface LiveFrames {
  frames: readonly LiveFrame[];
  text: string;
  /** How many frames of each type (the metrics count a write's events by type, once per type). */
  byType: ReadonlyMap<LiveEvent['type'], number>;
}

/** The frame of one event. */
export const frameOf = (event: LiveEvent): LiveFrame => ({ type: event.type, text: `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n` });

/** Frames joined for one write. */
export function joinFrames(frames: readonly LiveFrame[]): LiveFrames {
  const byType = new Map<LiveEvent['type'], number>();
  for (const f of frames) byType.set(f.type, (byType.get(f.type) ?? 0) + 1);
  return { frames, text: frames.map((f) => f.text).join(''), byType };
}
