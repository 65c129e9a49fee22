import { describe, expect, it } from 'vitest';
import { toLiveEvent } from './live-event';
import { createSseReader } from './sse-frames';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('SSE frames', () => {
  it('reads event and data lines up to a blank line, several frames per chunk', () => {
    const reader = createSseReader();
    expect(reader.push('event: item\ndata: {"a":1}\n\nevent: scope\ndata: {"b":2}\n\n')).toEqual([
      { type: 'item', data: '{"a":1}' },
      { type: 'scope', data: '{"b":2}' },
    ]);
  });

  it('joins a frame cut anywhere across chunks, \\r\\n split between two chunks included', () => {
    const reader = createSseReader();
    const text = 'event: presence\r\ndata: {"x":"è"}\r\n\r\n';
    const all = bytes(text);
    const frames = [];
    // every byte on its own: lines, line breaks and the two-byte 'è' are all cut
    for (const b of all) frames.push(...reader.push(new Uint8Array([b])));
    expect(frames).toEqual([{ type: 'presence', data: '{"x":"è"}' }]);
  });

  it('treats comments as keep-alives, not frames; joins multi-line data; defaults the type', () => {
    const comments: string[] = [];
    const reader = createSseReader((c) => comments.push(c));
    expect(reader.push(': ping\n\n')).toEqual([]);
    expect(comments).toEqual(['ping']);
    expect(reader.push('data: one\ndata: two\n\n')).toEqual([{ type: 'message', data: 'one\ntwo' }]);
  });

  it('keeps a frame without its blank line until the line comes', () => {
    const reader = createSseReader();
    expect(reader.push('event: job\ndata: {}\n')).toEqual([]);
    expect(reader.push('\n')).toEqual([{ type: 'job', data: '{}' }]);
  });
});

describe('live events from frames', () => {
  it('validates a frame with the shared schema of its type', () => {
    const data = JSON.stringify({ kind: 'module', name: 'M1', monthId: 'M01_2027', brand: 'AUR', version: 3, lockedBy: 'anna', savedAt: null, status: 'WIP' });
    const outcome = toLiveEvent({ type: 'item', data });
    expect(outcome).toEqual({ ok: true, event: { type: 'item', data: JSON.parse(data) } });
  });

  it('leaves out unknown types, bad JSON and frames that do not match', () => {
    expect(toLiveEvent({ type: 'newThing', data: '{}' })).toMatchObject({ ok: false, reason: 'unknownType' });
    expect(toLiveEvent({ type: 'item', data: '{' })).toMatchObject({ ok: false, reason: 'notJson' });
    expect(toLiveEvent({ type: 'item', data: '{"kind":"module"}' })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(toLiveEvent({ type: 'toString', data: '{}' })).toMatchObject({ ok: false, reason: 'unknownType' });
  });
});
