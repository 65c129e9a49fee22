/**
 * A file kept in the database as numbered pieces (upload_file_chunks, export_file_chunks), read back as
 * a stream: one piece at a time, from 0 until a number has none.
 */
import { Readable } from 'node:stream';

export function storedPiecesStream(readPiece: (seq: number) => Promise<Buffer | null>): Readable {
  return Readable.from(
    (async function* () {
      for (let seq = 0; ; seq++) {
        const data = await readPiece(seq);
        if (!data) return;
        yield data;
      }
    })(),
  );
}
