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
}

/** The frame of one event. */
export const frameOf = (event: LiveEvent): LiveFrame => ({ type: event.type, text: `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n` });

/** Frames joined for one write. */
export const joinFrames = (frames: readonly LiveFrame[]): LiveFrames => ({ frames, text: frames.map((f) => f.text).join('') });
