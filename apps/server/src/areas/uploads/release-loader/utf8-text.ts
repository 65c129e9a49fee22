/**
 * The bytes of a release file as text, without losing track of bytes that are not UTF-8. Node's decoders
 * turn such bytes into U+FFFD, which a file may also hold as a character of its own (and the product may
 * store), so a cell would change silently. Here an invalid byte `b` becomes the lone surrogate U+DC00 + b
 * (Python's "surrogateescape"), which no valid UTF-8 decodes to and which `parseCell` refuses as a cell
 * error (formats.ts `cellTextProblem`): the file, row and column of the bad bytes are reported.
 *
 * Two ways, one per loader path:
 * - the fast way decodes the bytes itself (`Utf8Decoder`), straight to lone surrogates;
 * - the careful way hands the bytes to csv-parse, which decodes them with Node (a lone surrogate cannot
 *   pass through it), so `markInvalidUtf8` first rewrites each invalid byte as MARK + (U+F700 + b) and a
 *   MARK of the file itself as MARK MARK (both valid UTF-8), and `unmarkInvalidUtf8` turns the cells back.
 *   A valid file without MARK goes through untouched (one `isUtf8` per chunk).
 */
import { isAscii, isUtf8 } from 'node:buffer';

/** U+FDD0, a noncharacter: stands before a marked byte, or doubles a U+FDD0 of the file. */
const MARK = '\uFDD0';
const MARK_BYTES = Buffer.from(MARK, 'utf8');

/** The length of the valid UTF-8 sequence at `i` (1–4), or 0 when the byte at `i` does not start one. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number) => i + k < b.length && (b[i + k]! & 0xc0) === 0x80;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    const c1 = b[i + 1]!;
    // Overlong forms and UTF-16 surrogates are not UTF-8.
    if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 >= 0xa0)) return 0;
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const c1 = b[i + 1]!;
    if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 >= 0x90)) return 0;
    return 4;
  }
  return 0;
}

/**
 * Where `b` ends but for a last sequence that the next bytes may complete (kept for the next chunk). A
 * lead byte never belongs to the sequence before it, so the bytes before the cut decode the same alone.
 */
function completeEnd(b: Uint8Array): number {
  for (let k = 1; k <= 3 && k <= b.length; k++) {
    const c = b[b.length - k]!;
    if ((c & 0xc0) === 0x80) continue;
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > k ? b.length - k : b.length;
  }
  return b.length;
}

/** Cuts a stream's bytes at sequence boundaries: each chunk with the previous chunk's unfinished tail. */
class Boundaries {
  private carry: Buffer | null = null;

  next(chunk: Buffer): Buffer {
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const end = completeEnd(bytes);
    this.carry = end < bytes.length ? Buffer.from(bytes.subarray(end)) : null;
    return bytes.subarray(0, end);
  }

  rest(): Buffer {
    const rest = this.carry ?? Buffer.alloc(0);
    this.carry = null;
    return rest;
  }
}

/** Bytes as text, each byte that is not UTF-8 as the lone surrogate U+DC00 + byte. */
export function decodeUtf8(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let text = '';
  let from = 0;
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    text += bytes.toString('utf8', from, i) + String.fromCharCode(0xdc00 + bytes[i]!);
    from = ++i;
  }
  return text + bytes.toString('utf8', from);
}

/** A stream's bytes as text (the fast way): `decodeUtf8` chunk by chunk, a character cut between chunks kept whole. */
export class Utf8Decoder {
  private readonly cut = new Boundaries();

  write(chunk: Buffer): string {
    return decodeUtf8(this.cut.next(chunk));
  }

  end(): string {
    return decodeUtf8(this.cut.rest());
  }
}

/** Rewrites bytes that are not UTF-8 (and U+FDD0) for csv-parse; see the file's comment. */
export function markInvalidUtf8(): {
  write(chunk: Buffer): Buffer;
  end(): Buffer;
  readonly marked: boolean;
  /** Whether a byte that is not UTF-8 was seen. */
  readonly invalid: boolean;
  /** Whether a valid UTF-8 sequence of 2–4 bytes was seen (`é` as C3 A9). */
  readonly multibyte: boolean;
} {
  const cut = new Boundaries();
  let marked = false;
  let invalid = false;
  let multibyte = false;
  const mark = (bytes: Buffer): Buffer => {
    if (isUtf8(bytes)) {
      if (!multibyte && !isAscii(bytes)) multibyte = true;
      if (bytes.indexOf(MARK_BYTES) === -1) return bytes;
    }
    marked = true;
    const out: Buffer[] = [];
    let from = 0;
    for (let i = 0; i < bytes.length; ) {
      const n = sequenceLength(bytes, i);
      if (n === 3 && bytes[i] === MARK_BYTES[0] && bytes[i + 1] === MARK_BYTES[1] && bytes[i + 2] === MARK_BYTES[2]) {
        multibyte = true;
        out.push(bytes.subarray(from, i + 3), MARK_BYTES);
        from = i += 3;
      } else if (n === 0) {
        invalid = true;
        out.push(bytes.subarray(from, i), MARK_BYTES, Buffer.from(String.fromCharCode(0xf700 + bytes[i]!), 'utf8'));
        from = ++i;
      } else {
        if (n > 1) multibyte = true;
        i += n;
      }
    }
    out.push(bytes.subarray(from));
    return Buffer.concat(out);
  };
  return {
    write: (chunk) => mark(cut.next(chunk)),
    end: () => mark(cut.rest()),
    get marked() {
      return marked;
    },
    get invalid() {
      return invalid;
    },
    get multibyte() {
      return multibyte;
    },
  };
}

const MARKED = /\uFDD0([\uFDD0\uF780-\uF7FF])/g;

/** A cell read from marked bytes: MARK MARK is U+FDD0 again, MARK + (U+F700 + b) the lone surrogate U+DC00 + b. */
export function unmarkInvalidUtf8(text: string): string {
  if (!text.includes(MARK)) return text;
  return text.replace(MARKED, (_, c: string) => (c === MARK ? MARK : String.fromCharCode(0xdc00 + c.charCodeAt(0) - 0xf700)));
}
