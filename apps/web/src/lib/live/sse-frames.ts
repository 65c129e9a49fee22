/**
 * Server-Sent Events framing (the `text/event-stream` format of the live stream, GET /api/events), read
 * incrementally: the browser reads the stream with fetch (EventSource cannot send `Authorization`), so the
 * bytes arrive in chunks cut anywhere — in a line, between `\r` and `\n`, or in a UTF-8 character.
 *
 * A frame is its `event:` and `data:` lines up to a blank line; several `data:` lines are joined with
 * '\n'; a comment line (`: ping`) is no frame but proves the stream alive (`onComment`).
 */

export interface SseFrame {
  /** The `event:` field; 'message' when the frame had none (the SSE default). */
  type: string;
  data: string;
}

interface SseReader {
  /** Feeds the next chunk of bytes (or text); returns the frames it completed, in order. */
  push(chunk: Uint8Array | string): SseFrame[];
}

export function createSseReader(onComment?: (text: string) => void): SseReader {
  const decoder = new TextDecoder();
  let buffer = '';
  let type = '';
  let data: string[] = [];
  // A chunk that ended with '\r' may be followed by the '\n' of the same line break.
  let skipLeadingNewline = false;

  const line = (text: string, out: SseFrame[]) => {
    if (text === '') {
      if (data.length) out.push({ type: type || 'message', data: data.join('\n') });
      type = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) {
      onComment?.(text.slice(1).trimStart());
      return;
    }
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
    // `id:` and `retry:` are not used by this stream: the client reconnects on its own schedule.
  };

  return {
    push(chunk) {
      buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      if (skipLeadingNewline && buffer.startsWith('\n')) buffer = buffer.slice(1);
      skipLeadingNewline = false;
      const out: SseFrame[] = [];
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i), out);
        if (c === '\r') {
          if (i + 1 === buffer.length) skipLeadingNewline = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
      return out;
    },
  };
}
