/**
 * A small bounded LRU of rendered PNGs (by everything the drawing depends on), so that a page of
 * tiles asking again for the same thumbnails does not redraw them on the request path.
 * Bounded by entries and by bytes; the least recently used picture goes first.
 */
export class PngCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    readonly maxEntries = 4000,
    readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  get(key: string): Buffer | undefined {
    const png = this.entries.get(key);
    if (png) {
      // Map keeps insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, png);
    }
    return png;
  }

  set(key: string, png: Buffer): void {
    if (png.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.length;
      this.entries.delete(key);
    }
    this.entries.set(key, png);
    this.bytes += png.length;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.bytes -= this.entries.get(oldest)!.length;
      this.entries.delete(oldest);
    }
  }
}
