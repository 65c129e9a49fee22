/** The five product pictures of a SKU, drawn on demand (no network, no files). */
import { drawEyewear, type ImageStyle } from './draw-eyewear.js';
import { encodePng } from './png-encoder.js';

export const SKU_IMAGE_VIEWS = [1, 2, 3, 4, 5] as const;
type SkuImageView = (typeof SKU_IMAGE_VIEWS)[number];

/** SKUs released on or after this day have the newer picture set. */
const NEW_IMAGE_SET_FROM = '2023-01-01';
export const DEFAULT_IMAGE_WIDTH = 240;
export const MIN_IMAGE_WIDTH = 48;
export const MAX_IMAGE_WIDTH = 1200;

export interface SkuImageRequest {
  upc: string;
  model: string;
  /** Colour code, e.g. "601/71" (frame/lens) or "710" (optical frame). */
  color: string;
  /** ISO date (YYYY-MM-DD) or a Date. */
  releaseDate: string | Date;
  view: number;
  /** Pixels; the height is two thirds of it. Default 240 (240×160). */
  width?: number;
}

export function isSkuImageView(view: number): view is SkuImageView {
  return Number.isInteger(view) && view >= 1 && view <= 5;
}

export function imageStyleFor(releaseDate: string | Date): ImageStyle {
  const iso = typeof releaseDate === 'string' ? releaseDate.slice(0, 10) : releaseDate.toISOString().slice(0, 10);
  return iso >= NEW_IMAGE_SET_FROM ? 'studio' : 'classic';
}

/** A PNG picture of the SKU: the same input always gives the same bytes. */
export function renderSkuImage(req: SkuImageRequest): Buffer {
  if (!isSkuImageView(req.view)) throw new RangeError(`Unknown view ${req.view}: views are 1 to 5`);
  const width = req.width ?? DEFAULT_IMAGE_WIDTH;
  if (!Number.isInteger(width) || width < MIN_IMAGE_WIDTH || width > MAX_IMAGE_WIDTH) {
    throw new RangeError(`Image width must be an integer from ${MIN_IMAGE_WIDTH} to ${MAX_IMAGE_WIDTH}`);
  }
  const height = Math.round((width * 2) / 3);
  const raster = drawEyewear({
    model: req.model,
    color: req.color,
    style: imageStyleFor(req.releaseDate),
    view: req.view,
    width,
    height,
  });
  return encodePng(width, height, raster.toRgba());
}
