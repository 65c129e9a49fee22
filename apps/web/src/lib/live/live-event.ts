import { liveEvents, type LiveEvent, type LiveEventType } from '@bo/shared/live-events';
import type { SseFrame } from './sse-frames';

type LiveFrameOutcome = { ok: true; event: LiveEvent } | { ok: false; reason: 'unknownType' | 'notJson' | 'invalid'; type: string };

const isLiveEventType = (type: string): type is LiveEventType => Object.hasOwn(liveEvents, type);

/**
 * One frame of the stream as a typed live event, checked against the shared zod schema of its type. A type
 * this browser does not know (a newer server) or a frame that does not match is left out, never thrown:
 * one odd frame must not end the stream.
 */
export function toLiveEvent(frame: SseFrame): LiveFrameOutcome {
  if (!isLiveEventType(frame.type)) return { ok: false, reason: 'unknownType', type: frame.type };
  let json: unknown;
  try {
    json = JSON.parse(frame.data);
  } catch {
    return { ok: false, reason: 'notJson', type: frame.type };
  }
  const parsed = liveEvents[frame.type].safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'invalid', type: frame.type };
  return { ok: true, event: { type: frame.type, data: parsed.data } as LiveEvent };
}
