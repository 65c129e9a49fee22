import { PngCache } from './png-cache.js';
import { DEFAULT_IMAGE_WIDTH, renderSkuImage, type SkuImageRequest } from './sku-image.js';

/** Bumped whenever the drawing changes, so that browsers drop their immutable copies. */
export const DRAWING_VERSION = 1;

/** Everything a drawing depends on, as one printable string: the cache key, and (quoted) the HTTP ETag. */
export const pictureKey = (req: SkuImageRequest) =>
  `${req.upc}-${req.view}-${req.width ?? DEFAULT_IMAGE_WIDTH}-${req.model}-${req.color}-${String(req.releaseDate)}-v${DRAWING_VERSION}`.replace(/[^\x21-\x7e]/g, '_');

/**
 * SKU pictures drawn through one bounded LRU (png-cache.ts). The picture route and the export job
 * share it (app.ts): the thumbnails a page asked for are the pictures its export embeds.
 */
export class SkuPictures {
  constructor(readonly cache = new PngCache()) {}

  draw(req: SkuImageRequest): Buffer {
    const key = pictureKey(req);
    let png = this.cache.get(key);
    if (!png) {
      png = renderSkuImage(req);
      this.cache.set(key, png);
    }
    return png;
  }
}
