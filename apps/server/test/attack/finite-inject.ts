import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/** How long an event stream is read (for its first frame) before the suite hangs up. */
const STREAM_READ_MS = 2000;

/**
 * `app.inject` for suites that call every route, the live event stream (GET /api/events, never ending) included: the
 * answer is taken as a stream; an event stream is read up to its first frame (or STREAM_READ_MS) and then hung up
 * (the server ends it, as when a browser tab closes); any other answer is read whole. Answers what inject answers:
 * status, headers, body, json().
 */
export async function injectFinite(app: FastifyInstance, opts: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await app.inject({ ...opts, payloadAsStream: true });
  const stream = res.stream();
  const chunks: Buffer[] = [];
  if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, STREAM_READ_MS);
      stream.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (Buffer.concat(chunks).includes('\n\n')) {
          clearTimeout(timer);
          resolve();
        }
      });
      stream.once('end', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    stream.removeAllListeners('data');
    stream.on('error', () => undefined);
    res.raw.res.destroy();
  } else {
    for await (const chunk of stream) chunks.push(chunk as Buffer);
  }
  const rawPayload = Buffer.concat(chunks);
  const body = rawPayload.toString('utf8');
  return Object.assign(Object.create(res) as LightMyRequestResponse, {
    body,
    payload: body,
    rawPayload,
    json: () => JSON.parse(body) as unknown,
  });
}
