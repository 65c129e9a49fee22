/**
 * Chosen entries of a zip read from its bytes in order (a Buffer, a file, a file kept in the database): the zip's
 * central directory (xlsx-check.ts `zipEntries`) says where each entry starts and how many compressed bytes it
 * has, so a reader skips to the entries it wants, in the order they are stored, and inflates each as a stream.
 * Nothing is written to disk and nothing depends on a local header's sizes (a writer that streams puts them in a
 * data descriptor after the data: the central directory has them).
 */
import { once } from 'node:events';
import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { ZipEntry } from './xlsx-check.js';

const LOCAL = 0x04034b50;

/** The bytes of a zip, read once from the start, forward only. */
export class ZipCursor {
  private readonly it: AsyncIterator<Buffer | string>;
  private buf: Buffer = Buffer.alloc(0);
  /** Offset in the zip of `buf[0]`. */
  private at = 0;

  constructor(chunks: AsyncIterable<Buffer | string>) {
    this.it = chunks[Symbol.asyncIterator]();
  }

  private async more(): Promise<void> {
    const next = await this.it.next();
    if (next.done) throw new Error('the zip ends before the end of an entry its directory lists');
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
  }

  async skipTo(offset: number): Promise<void> {
    if (offset < this.at) throw new Error('the zip directory lists entries that overlap');
    while (this.at + this.buf.length < offset) {
      this.at += this.buf.length;
      this.buf = Buffer.alloc(0);
      await this.more();
    }
    this.buf = this.buf.subarray(offset - this.at);
    this.at = offset;
  }

  async take(n: number): Promise<Buffer> {
    while (this.buf.length < n) await this.more();
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    this.at += n;
    return out;
  }

  /** The next `n` bytes, piece by piece. */
  async *range(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buf.length === 0) await this.more();
      const part = this.buf.subarray(0, Math.min(left, this.buf.length));
      this.buf = this.buf.subarray(part.length);
      this.at += part.length;
      left -= part.length;
      yield part;
    }
  }

  /** Stops reading (the underlying stream is closed). */
  async close(): Promise<void> {
    await this.it.return?.();
  }
}

/**
 * Reads the entries `wanted` (any order; each once) from `chunks`, calling `use` with each one's expanded content as
 * a stream, in the order they are stored; `use` reads what it needs. Stops reading after the last one.
 */
export async function forEachEntry(chunks: AsyncIterable<Buffer | string>, wanted: readonly ZipEntry[], use: (entry: ZipEntry, content: Readable) => Promise<void>): Promise<void> {
  const cursor = new ZipCursor(chunks);
  try {
    for (const entry of [...wanted].sort((a, b) => a.localOffset - b.localOffset)) {
      const { content, done } = await openEntry(cursor, entry);
      try {
        await use(entry, content);
      } finally {
        await done();
      }
    }
  } finally {
    await cursor.close();
  }
}

/**
 * One entry's expanded content, `cursor` moved to its start. `done` must be awaited before the cursor is used again:
 * it stops the entry's reading where it is (a stream that reads ahead has finished its read).
 */
export async function openEntry(cursor: ZipCursor, entry: ZipEntry): Promise<{ content: Readable; done: () => Promise<void> }> {
  await cursor.skipTo(entry.localOffset);
  const header = await cursor.take(30);
  if (header.readUInt32LE(0) !== LOCAL) throw new Error(`the zip has no entry where its directory puts ${entry.name}`);
  await cursor.take(header.readUInt16LE(26) + header.readUInt16LE(28));
  if (entry.method !== 0 && entry.method !== 8) throw new Error(`${entry.name} is compressed in a way Excel does not write (method ${entry.method})`);
  const source = Readable.from(cursor.range(entry.compressedSize), { objectMode: false, highWaterMark: 64 * 1024 });
  let content: Readable = source;
  if (entry.method === 8) {
    const inflate = zlib.createInflateRaw({ chunkSize: 64 * 1024 });
    pipeline(source, inflate, () => undefined); // an error in either ends both: the reader of `inflate` sees it
    content = inflate;
  }
  const done = async () => {
    if (!source.destroyed) {
      const closed = once(source, 'close').catch(() => undefined);
      source.destroy();
      await closed;
    }
    if (content !== source && !content.destroyed) content.destroy();
  };
  return { content, done };
}

/** The whole expanded content of a stream as text, refused past `limit` bytes. */
export async function contentText(content: Readable, name: string, limit: number): Promise<string> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of content as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > limit) throw new Error(`${name} is larger than ${limit} bytes`);
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}
