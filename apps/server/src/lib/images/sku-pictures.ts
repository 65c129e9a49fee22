import { PngCache } from './png-cache.js';
import { DEFAULT_IMAGE_WIDTH, renderSkuImage, type SkuImageRequest } from './sku-image.js';

/** Bumped whenever the drawing changes, so that browsers drop their immutable copies. */
const DRAWING_VERSION = 1;

/** Everything a drawing depends on, as one printable string: the cache key, and (quoted) the HTTP ETag. */
export const pictureKey = (req: SkuImageRequest) =>
  `${req.upc}-${req.view}-${req.width ?? DEFAULT_IMAGE_WIDTH}-${req.model}-${req.color}-${String(req.releaseDate)}-v${DRAWING_VERSION}`.replace(/[^\x21-\x7e]/g, '_');

/**
 * SKU pictures drawn through one bounded LRU (png-cache.ts). The picture route has one (app.ts); the
 * export job hands the pictures found there to the export worker, which draws the others through a cache
 * of its own (export-worker.ts): the thumbnails a page asked for are the pictures its export embeds.
 */
export class SkuPictures {
  /** Pictures drawn (not found in the cache) since this was made. */
  drawn = 0;

  constructor(readonly cache = new PngCache()) {}

  draw(req: SkuImageRequest): Buffer {
    const key = pictureKey(req);
    let png = this.cache.get(key);
    if (!png) {
      png = renderSkuImage(req);
      this.drawn++;
      this.cache.set(key, png);
    }
    return png;
  }
}
