/**
 * An RGB drawing surface with anti-aliased polygon filling: exact horizontal coverage and four
 * sub-scanlines per pixel row, non-zero winding so that a shape made of several overlapping
 * polygons (a stroke's quads and round joints) is painted once, without seams.
 */
import type { Rgb } from './palette.js';

export type Point = readonly [number, number];
export type Polygon = readonly Point[];
/** A flat colour, or a colour per pixel centre. */
export type Paint = Rgb | ((x: number, y: number) => Rgb);

const SUB_ROWS = 4;

export class Raster {
  private readonly rgb: Float32Array;
  private readonly coverage: Float32Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Paint,
  ) {
    this.rgb = new Float32Array(width * height * 3);
    this.coverage = new Float32Array(width + 1);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const c = typeof background === 'function' ? background(x + 0.5, y + 0.5) : background;
        const i = (y * width + x) * 3;
        this.rgb[i] = c[0];
        this.rgb[i + 1] = c[1];
        this.rgb[i + 2] = c[2];
      }
    }
  }

  /** Paints the union of the polygons. */
  fill(polygons: readonly Polygon[], paint: Paint, opacity = 1): void {
    const edges: number[] = []; // per edge: yTop, yBottom, xAtTop, slope, direction
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (const raw of polygons) {
      if (raw.length < 3) continue;
      const poly = signedArea(raw) < 0 ? raw.slice().reverse() : raw;
      for (let i = 0; i < poly.length; i++) {
        const p = poly[i]!;
        const q = poly[(i + 1) % poly.length]!;
        minX = Math.min(minX, p[0]);
        maxX = Math.max(maxX, p[0]);
        minY = Math.min(minY, p[1]);
        maxY = Math.max(maxY, p[1]);
        if (p[1] === q[1]) continue;
        const down = q[1] > p[1];
        const top = down ? p : q;
        const bottom = down ? q : p;
        edges.push(top[1], bottom[1], top[0], (bottom[0] - top[0]) / (bottom[1] - top[1]), down ? 1 : -1);
      }
    }
    if (edges.length === 0 || !Number.isFinite(minX)) return;
    const x0 = Math.max(0, Math.floor(minX));
    const x1 = Math.min(this.width - 1, Math.ceil(maxX));
    const y0 = Math.max(0, Math.floor(minY));
    const y1 = Math.min(this.height - 1, Math.ceil(maxY));
    if (x0 > x1 || y0 > y1) return;

    const cov = this.coverage;
    const xs: number[] = [];
    const dirs: number[] = [];
    const rowEdges: number[] = [];
    for (let py = y0; py <= y1; py++) {
      cov.fill(0, x0, x1 + 2);
      rowEdges.length = 0;
      for (let e = 0; e < edges.length; e += 5) {
        if (edges[e]! < py + 1 && edges[e + 1]! > py) rowEdges.push(e);
      }
      if (rowEdges.length === 0) continue;
      for (let s = 0; s < SUB_ROWS; s++) {
        const sy = py + (s + 0.5) / SUB_ROWS;
        xs.length = 0;
        dirs.length = 0;
        for (const e of rowEdges) {
          if (sy < edges[e]! || sy >= edges[e + 1]!) continue;
          const x = edges[e + 2]! + (sy - edges[e]!) * edges[e + 3]!;
          // insertion into the sorted crossing list (a handful per sub-row)
          let k = xs.length;
          xs.push(x);
          dirs.push(edges[e + 4]!);
          while (k > 0 && xs[k - 1]! > x) {
            xs[k] = xs[k - 1]!;
            dirs[k] = dirs[k - 1]!;
            k--;
          }
          xs[k] = x;
          dirs[k] = edges[e + 4]!;
        }
        let winding = 0;
        let start = 0;
        for (let k = 0; k < xs.length; k++) {
          const before = winding;
          winding += dirs[k]!;
          if (before === 0 && winding !== 0) start = xs[k]!;
          else if (before !== 0 && winding === 0) this.addSpan(start, xs[k]!, 1 / SUB_ROWS);
        }
      }
      for (let px = x0; px <= x1; px++) {
        const c = cov[px]!;
        if (c <= 0.001) continue;
        const a = Math.min(1, c) * opacity;
        const colour = typeof paint === 'function' ? paint(px + 0.5, py + 0.5) : paint;
        const i = (py * this.width + px) * 3;
        this.rgb[i] = this.rgb[i]! + (colour[0] - this.rgb[i]!) * a;
        this.rgb[i + 1] = this.rgb[i + 1]! + (colour[1] - this.rgb[i + 1]!) * a;
        this.rgb[i + 2] = this.rgb[i + 2]! + (colour[2] - this.rgb[i + 2]!) * a;
      }
    }
  }

  private addSpan(from: number, to: number, weight: number): void {
    const a = Math.max(0, from);
    const b = Math.min(this.width, to);
    if (b <= a) return;
    const ia = Math.floor(a);
    const ib = Math.floor(b);
    const cov = this.coverage;
    if (ia === ib) {
      cov[ia] = cov[ia]! + (b - a) * weight;
      return;
    }
    cov[ia] = cov[ia]! + (ia + 1 - a) * weight;
    for (let i = ia + 1; i < ib; i++) cov[i] = cov[i]! + weight;
    if (ib < this.width) cov[ib] = cov[ib]! + (b - ib) * weight;
  }

  /** Opaque RGBA bytes, row by row. */
  toRgba(): Uint8Array {
    const out = new Uint8Array(this.width * this.height * 4);
    for (let p = 0, q = 0; p < this.rgb.length; p += 3, q += 4) {
      out[q] = clampByte(this.rgb[p]!);
      out[q + 1] = clampByte(this.rgb[p + 1]!);
      out[q + 2] = clampByte(this.rgb[p + 2]!);
      out[q + 3] = 255;
    }
    return out;
  }
}

function clampByte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

function signedArea(poly: Polygon): number {
  let area = 0;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i]!;
    const q = poly[(i + 1) % poly.length]!;
    area += p[0] * q[1] - q[0] * p[1];
  }
  return area / 2;
}

function circle(cx: number, cy: number, r: number, segments = 14): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < segments; i++) {
    const t = (i / segments) * Math.PI * 2;
    out.push([cx + Math.cos(t) * r, cy + Math.sin(t) * r]);
  }
  return out;
}

export function ellipse(cx: number, cy: number, rx: number, ry: number, segments = 32): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < segments; i++) {
    const t = (i / segments) * Math.PI * 2;
    out.push([cx + Math.cos(t) * rx, cy + Math.sin(t) * ry]);
  }
  return out;
}

/** The outline of a line of the given width through the points, with round joints and caps. */
export function stroke(points: readonly Point[], width: number, closed = false): Polygon[] {
  const r = width / 2;
  const out: Polygon[] = [];
  const count = closed ? points.length : points.length - 1;
  for (let i = 0; i < count; i++) {
    const p = points[i]!;
    const q = points[(i + 1) % points.length]!;
    const dx = q[0] - p[0];
    const dy = q[1] - p[1];
    const len = Math.hypot(dx, dy);
    if (len < 1e-9) continue;
    const nx = (-dy / len) * r;
    const ny = (dx / len) * r;
    out.push([
      [p[0] + nx, p[1] + ny],
      [q[0] + nx, q[1] + ny],
      [q[0] - nx, q[1] - ny],
      [p[0] - nx, p[1] - ny],
    ]);
  }
  const segments = Math.max(8, Math.min(20, Math.round(r * 4)));
  for (const p of points) out.push(circle(p[0], p[1], r, segments));
  return out;
}

export function translate(polygons: readonly Polygon[], dx: number, dy: number): Polygon[] {
  return polygons.map((poly) => poly.map(([x, y]) => [x + dx, y + dy] as const));
}
