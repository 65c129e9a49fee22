/**
 * A pair of glasses as a small 3-D wire model (lens outlines, rims, bridge, temples, in
 * millimetres), projected for one of five views and painted on a Raster in one of two styles.
 */
import { coloursOf, hashText, hslToRgb, mix, rgbToHue, shade, type FrameColour, type LensColour, type Rgb } from './palette.js';
import { ellipse, Raster, stroke, translate, type Paint, type Point, type Polygon } from './raster.js';

const FRAME_SHAPES = [
  'pilot',
  'square',
  'round',
  'cateye',
  'sport',
  'rectangle',
  'oval',
  'browline',
  'oversized',
  'geometric',
] as const;
export type FrameShape = (typeof FRAME_SHAPES)[number];

/** The frame shape a model is drawn with (stable: a hash of the model code). */
export function shapeOfModel(model: string): FrameShape {
  return FRAME_SHAPES[hashText(model.trim().toUpperCase()) % FRAME_SHAPES.length]!;
}

/** 'classic' for SKUs released before 2023, 'studio' for the newer picture set. */
export type ImageStyle = 'classic' | 'studio';

interface EyewearDrawing {
  model: string;
  color: string;
  style: ImageStyle;
  /** 1 front, 2 three-quarter, 3 side, 4 top, 5 folded. */
  view: number;
  width: number;
  height: number;
}

type Vec3 = readonly [number, number, number];

interface FrameSpec {
  shape: FrameShape;
  /** Half width and half height of a lens. */
  a: number;
  b: number;
  bridge: number;
  rim: number;
  templeWidth: number;
  /** z = -wrap·x², how much the front bends round the face. */
  wrap: number;
  metal: boolean;
  doubleBridge: boolean;
  polygonSides: number;
}

function frameSpec(model: string, frame: FrameColour): FrameSpec {
  const shape = shapeOfModel(model);
  const h = hashText(`${model.toUpperCase()}#spec`);
  const unit = (bits: number) => ((h >>> bits) & 0xff) / 255;
  const metal = frame.finish === 'metal' || (shape === 'pilot' && unit(0) < 0.7) || (shape === 'round' && unit(0) < 0.4);
  let b = 19 + unit(8) * 4;
  let a = b;
  switch (shape) {
    case 'round':
      a = b;
      break;
    case 'oval':
      a = b * 1.32;
      b *= 0.9;
      break;
    case 'square':
      a = b * 1.08;
      break;
    case 'rectangle':
      b *= 0.78;
      a = b * 1.7;
      break;
    case 'oversized':
      b *= 1.2;
      a = b * 1.1;
      break;
    case 'browline':
    case 'cateye':
      a = b * 1.3;
      break;
    case 'pilot':
      a = b * 1.14;
      break;
    case 'sport':
      b *= 0.9;
      a = b * 1.6;
      break;
    case 'geometric':
      a = b * 1.12;
      break;
  }
  return {
    shape,
    a,
    b,
    bridge: 15 + unit(16) * 5,
    rim: metal ? 1.3 + unit(24) * 0.5 : 2.4 + unit(24) * 1.4,
    templeWidth: shape === 'sport' ? 4.6 : metal ? 1.8 : 3.2,
    wrap: shape === 'sport' ? 0.0042 : 0.0011 + unit(4) * 0.0008,
    metal,
    doubleBridge: shape === 'pilot' || (shape === 'sport' && metal) || (metal && shape === 'square' && unit(12) < 0.5),
    polygonSides: unit(20) < 0.5 ? 6 : 8,
  };
}

/** One lens outline, centred, x pointing away from the nose, y up. */
function lensOutline(spec: FrameSpec, segments = 56): Point[] {
  const { a, b } = spec;
  if (spec.shape === 'geometric') {
    const corners: Point[] = [];
    for (let k = 0; k < spec.polygonSides; k++) {
      const t = (k / spec.polygonSides) * Math.PI * 2 + Math.PI / spec.polygonSides;
      corners.push([Math.cos(t) * a * 1.04, Math.sin(t) * b * 1.06]);
    }
    const out: Point[] = [];
    const per = Math.ceil(segments / corners.length);
    corners.forEach((p, k) => {
      const q = corners[(k + 1) % corners.length]!;
      for (let i = 0; i < per; i++) out.push([p[0] + ((q[0] - p[0]) * i) / per, p[1] + ((q[1] - p[1]) * i) / per]);
    });
    return out;
  }
  const n = { round: 2, oval: 2.1, square: 3.4, rectangle: 4.2, oversized: 3, browline: 2.8, cateye: 2.6, pilot: 2.15, sport: 2.5 }[spec.shape];
  const out: Point[] = [];
  for (let i = 0; i < segments; i++) {
    const t = (i / segments) * Math.PI * 2;
    const c = Math.cos(t);
    const s = Math.sin(t);
    let x = a * Math.sign(c) * Math.abs(c) ** (2 / n);
    let y = b * Math.sign(s) * Math.abs(s) ** (2 / n);
    if (spec.shape === 'cateye') {
      // upswept outer corner, narrower chin, whole lens tilted up towards the temple
      if (y > 0) y += 0.75 * b * Math.max(0, x / a) ** 2.2 * (0.4 + 0.6 * (y / b));
      else x *= 1 - 0.15 * (-y / b);
      y += 0.12 * x;
    } else if (spec.shape === 'pilot') {
      if (y < 0) {
        y *= 1.2;
        x += 0.3 * a * (-y / b) ** 1.6 * ((1 - x / a) / 2);
      }
    } else if (spec.shape === 'sport') {
      // flat brow line, deep outer sweep, cut-away inner chin
      if (y > 0) y *= 0.72 + 0.18 * (x / a);
      else {
        y *= 1.1 + 0.25 * Math.max(0, x / a);
        x += 0.38 * a * (-y / b) * ((1 - x / a) / 2);
      }
    } else if (spec.shape === 'browline' && y > 0) {
      y *= 0.88;
    }
    out.push([x, y]);
  }
  return out;
}

// ───────────────────────────── The 3-D model ─────────────────────────────

type Part =
  | { kind: 'lens'; points: Vec3[] }
  | { kind: 'line'; points: Vec3[]; width: number; closed: boolean; colour: 'frame' | 'accent' | 'pad' };

interface Model3d {
  parts: Part[];
  spec: FrameSpec;
}

function buildModel(spec: FrameSpec, folded: boolean): Model3d {
  const outline = lensOutline(spec);
  const centre = spec.bridge / 2 + spec.a;
  const z = (x: number) => -spec.wrap * x * x;
  const parts: Part[] = [];
  const brow = spec.shape === 'browline';
  for (const side of [1, -1]) {
    const lens: Vec3[] = outline.map(([x, y]) => {
      const gx = side * (centre + x);
      return [gx, y, z(gx)] as const;
    });
    parts.push({ kind: 'lens', points: lens });
    parts.push({ kind: 'line', points: lens, width: brow ? spec.rim * 0.55 : spec.rim, closed: true, colour: brow ? 'accent' : 'frame' });
    if (brow) {
      const upper = lens.filter((_, i) => i > 1 && i < outline.length / 2 - 1);
      parts.push({ kind: 'line', points: upper, width: spec.rim * 2.6, closed: false, colour: 'frame' });
    }
    if (spec.metal) {
      const px = side * (spec.bridge / 2 + 2.5);
      parts.push({ kind: 'line', points: [[px, -spec.b * 0.15, z(px) - 5], [px, -spec.b * 0.35, z(px) - 6]], width: 3.2, closed: false, colour: 'pad' });
    }
  }

  // Bridge over the nose (and a top bar on aviators)
  const yb = spec.b * (spec.shape === 'pilot' ? 0.45 : 0.3);
  const innerX = spec.bridge / 2 + 0.5;
  const bridge: Vec3[] = [];
  for (let i = 0; i <= 8; i++) {
    const u = i / 8;
    const x = innerX * (1 - 2 * u);
    bridge.push([x, yb + Math.sin(Math.PI * u) * 3.5, z(x) + 1.5]);
  }
  parts.push({ kind: 'line', points: bridge, width: spec.metal ? spec.rim * 1.1 : spec.rim * 1.4, closed: false, colour: 'frame' });
  if (spec.doubleBridge) {
    const topY = spec.b * 0.98;
    const half = spec.bridge / 2 + spec.a * 0.55;
    const bar: Vec3[] = [];
    for (let i = 0; i <= 10; i++) {
      const x = half * (1 - (2 * i) / 10);
      bar.push([x, topY + Math.cos((x / half) * (Math.PI / 2)) * 1.5, z(x) + 1]);
    }
    parts.push({ kind: 'line', points: bar, width: spec.rim, closed: false, colour: 'frame' });
  }

  // End pieces and temples
  const outer = spec.bridge / 2 + spec.a * 2 + spec.rim * 0.3;
  const yh = spec.b * (spec.shape === 'cateye' ? 0.62 : 0.42);
  for (const side of [1, -1]) {
    const hx = side * (outer + 3.5);
    const hz = z(hx);
    parts.push({
      kind: 'line',
      points: [
        [side * (outer - 1), yh, z(outer - 1)],
        [hx, yh, hz - 1.5],
      ],
      width: spec.rim * 1.5 + 1,
      closed: false,
      colour: 'frame',
    });
    const temple: Vec3[] = folded
      ? [
          [hx, yh, hz - 1.5],
          [hx - side * 7, yh - 1, hz - 8 - (side < 0 ? 5 : 0)],
          [hx - side * 118, yh - 3 - (side < 0 ? 4 : 0), hz - 10 - (side < 0 ? 6 : 0)],
          [hx - side * 130, yh - 12 - (side < 0 ? 4 : 0), hz - 11 - (side < 0 ? 6 : 0)],
        ]
      : [
          [hx, yh, hz - 1.5],
          [hx + side * 3, yh, hz - 14],
          [hx + side * 6, yh - 1.5, hz - 100],
          [hx + side * 5.5, yh - 9, hz - 122],
          [hx + side * 3.5, yh - 24, hz - 136],
        ];
    parts.push({ kind: 'line', points: temple, width: spec.templeWidth, closed: false, colour: 'frame' });
  }
  return { parts, spec };
}

// ───────────────────────────── Views ─────────────────────────────

interface Camera {
  yaw: number;
  pitch: number;
  folded: boolean;
}

function cameraFor(view: number, style: ImageStyle): Camera {
  const deg = Math.PI / 180;
  const mirror = style === 'studio' ? -1 : 1;
  switch (view) {
    case 2:
      return { yaw: 38 * deg * mirror, pitch: (style === 'studio' ? 16 : 9) * deg, folded: false };
    case 3:
      return { yaw: 90 * deg * mirror, pitch: (style === 'studio' ? 6 : 0) * deg, folded: false };
    case 4:
      return { yaw: (style === 'studio' ? 8 : 0) * deg, pitch: (style === 'studio' ? 62 : 74) * deg, folded: false };
    case 5:
      return { yaw: 16 * deg * mirror, pitch: 14 * deg, folded: true };
    default:
      return { yaw: 0, pitch: (style === 'studio' ? 4 : 0) * deg, folded: false };
  }
}

/** Screen x right, screen y down, depth growing towards the viewer. */
function project(p: Vec3, cam: Camera): { x: number; y: number; depth: number } {
  const cy = Math.cos(cam.yaw);
  const sy = Math.sin(cam.yaw);
  const cp = Math.cos(cam.pitch);
  const sp = Math.sin(cam.pitch);
  const x1 = p[0] * cy + p[2] * sy;
  const z1 = -p[0] * sy + p[2] * cy;
  const y2 = p[1] * cp - z1 * sp;
  const z2 = p[1] * sp + z1 * cp;
  return { x: x1, y: -y2, depth: z2 };
}

interface ScreenPart {
  part: Part;
  points: Point[];
  depth: number;
}

// ───────────────────────────── Painting ─────────────────────────────

export function drawEyewear(d: EyewearDrawing): Raster {
  const { frame, lens } = coloursOf(d.color);
  const spec = frameSpec(d.model, frame);
  const cam = cameraFor(d.view, d.style);
  const model = buildModel(spec, cam.folded);

  const projected: ScreenPart[] = model.parts.map((part) => {
    const pts = part.points.map((p) => project(p, cam));
    const bias = part.kind === 'line' && part.colour !== 'pad' ? 0.5 : 0;
    return {
      part,
      points: pts.map((p) => [p.x, p.y] as const),
      depth: pts.reduce((s, p) => s + p.depth, 0) / pts.length + bias,
    };
  });
  projected.sort((p, q) => p.depth - q.depth);

  // Fit the drawing into the picture, leaving room for the shadow (classic) or the view dots (studio).
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const sp of projected) {
    for (const [x, y] of sp.points) {
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  const pad = 3;
  minX -= pad;
  maxX += pad;
  minY -= pad;
  maxY += pad;
  const margin = d.width * 0.07;
  const bottomRoom = d.height * (d.style === 'studio' ? 0.14 : 0.12);
  const availW = d.width - 2 * margin;
  const availH = d.height - 2 * margin - bottomRoom;
  const scale = Math.min(availW / (maxX - minX), availH / (maxY - minY));
  const offX = margin + (availW - (maxX - minX) * scale) / 2 - minX * scale;
  const offY = margin + (availH - (maxY - minY) * scale) / 2 - minY * scale;
  const toPx = (p: Point): Point => [p[0] * scale + offX, p[1] * scale + offY];
  const box = { x0: minX * scale + offX, x1: maxX * scale + offX, y0: minY * scale + offY, y1: maxY * scale + offY };

  const accent: Rgb = hashText(d.model) % 2 === 0 ? [186, 190, 196] : [204, 170, 96];
  const raster = new Raster(d.width, d.height, background(d, frame, box));

  const shapes = projected.map((sp) => {
    const pts = sp.points.map(toPx);
    if (sp.part.kind === 'lens') return { sp, polys: [pts] as Polygon[] };
    return { sp, polys: stroke(pts, Math.max(0.9, sp.part.width * scale), sp.part.closed) };
  });

  if (d.style === 'classic') {
    // Soft floor shadow
    const cx = (box.x0 + box.x1) / 2;
    const cy = Math.min(d.height - bottomRoom * 0.45, box.y1 + bottomRoom * 0.55);
    for (let i = 6; i >= 1; i--) {
      raster.fill([ellipse(cx, cy, ((box.x1 - box.x0) / 2) * (0.55 + i * 0.07), bottomRoom * (0.12 + i * 0.05))], [96, 92, 86], 0.06);
    }
  } else {
    // Drop shadow of the whole frame, offset down-right
    const dx = d.width * 0.018;
    const dy = d.height * 0.035;
    raster.fill(
      shapes.flatMap((s) => translate(s.polys, dx, dy)),
      shade(frame.rgb, 0.25),
      0.2,
    );
  }

  for (const { sp, polys } of shapes) {
    const part = sp.part;
    if (part.kind === 'lens') {
      paintLens(raster, polys, lens, d.style);
      continue;
    }
    const base: Rgb = part.colour === 'accent' ? accent : part.colour === 'pad' ? [226, 230, 232] : frame.rgb;
    if (d.style === 'studio') {
      raster.fill(stroke(sp.points.map(toPx), Math.max(0.9, part.width * scale) + 1.6, part.closed), shade(base, 0.35), 0.85);
    }
    const finish = part.colour === 'frame' ? frame.finish : 'metal';
    raster.fill(polys, framePaint(base, finish, bounds(polys), d.style, scale), part.colour === 'pad' ? 0.7 : finish === 'crystal' ? 0.6 : 1);
  }

  if (d.style === 'studio') drawViewDots(raster, d.view);
  return raster;
}

function background(d: EyewearDrawing, frame: FrameColour, box: { x0: number; x1: number; y0: number; y1: number }): Paint {
  if (d.style === 'classic') {
    const top: Rgb = [247, 246, 243];
    const bottom: Rgb = [221, 219, 214];
    return (_x, y) => mix(top, bottom, y / d.height);
  }
  // Studio set: a pastel of the frame's complementary hue, lit from the upper left, with a soft spot behind the glasses.
  const hue = (rgbToHue(frame.rgb) + 0.5) % 1;
  const light = hslToRgb(hue, 0.42, 0.9);
  const deep = hslToRgb(hue, 0.38, 0.7);
  const cx = (box.x0 + box.x1) / 2;
  const cy = (box.y0 + box.y1) / 2;
  const r = Math.max(box.x1 - box.x0, box.y1 - box.y0) * 0.75;
  return (x, y) => {
    const diag = (x / d.width + y / d.height) / 2;
    const spot = Math.max(0, 1 - Math.hypot(x - cx, y - cy) / r);
    return mix(mix(light, deep, diag), [255, 255, 255], spot * 0.45);
  };
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function bounds(polys: readonly Polygon[]): Box {
  const b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const poly of polys) {
    for (const [x, y] of poly) {
      b.x0 = Math.min(b.x0, x);
      b.x1 = Math.max(b.x1, x);
      b.y0 = Math.min(b.y0, y);
      b.y1 = Math.max(b.y1, y);
    }
  }
  return b;
}

function framePaint(base: Rgb, finish: FrameColour['finish'], box: Box, style: ImageStyle, pxPerMm: number): Paint {
  const h = Math.max(1, box.y1 - box.y0);
  switch (finish) {
    case 'metal':
      return (_x, y) => {
        const v = (y - box.y0) / h;
        return shade(base, 0.72 + 0.6 * Math.exp(-(((v - 0.35) / 0.16) ** 2)));
      };
    case 'tortoise': {
      const dark = shade(base, 0.45);
      const amber = shade(base, 1.35);
      // Mottled shell: two octaves of noise, sized in millimetres so that bigger pictures look the same.
      const cell = Math.max(1.5, 3.2 * pxPerMm);
      return (x, y) => {
        const n = 0.65 * valueNoise(x / (cell * 1.6), y / cell) + 0.35 * valueNoise(x / (cell * 0.6) + 17, y / (cell * 0.5));
        return n > 0.5 ? mix(base, dark, smoothstep(0.5, 0.75, n)) : mix(amber, base, smoothstep(0.2, 0.5, n));
      };
    }
    case 'matte':
      return (_x, y) => shade(base, 1.05 - 0.12 * ((y - box.y0) / h));
    default:
      return (_x, y) => {
        const v = (y - box.y0) / h;
        return shade(base, style === 'studio' ? 1.25 - 0.45 * v : 1.12 - 0.3 * v);
      };
  }
}

function paintLens(raster: Raster, polys: Polygon[], lens: LensColour, style: ImageStyle): void {
  const box = bounds(polys);
  const w = Math.max(1, box.x1 - box.x0);
  const h = Math.max(1, box.y1 - box.y0);
  const clear = lens.code === '';
  const glare: Rgb = [255, 255, 255];
  raster.fill(
    polys,
    (x, y) => {
      const u = (x - box.x0) / w;
      const v = (y - box.y0) / h;
      let c = mix(lens.top, lens.bottom, v);
      if (lens.mirror) c = mix(c, glare, 0.25 * Math.max(0, Math.sin((u + v) * Math.PI * 2)));
      const band = u - v * 0.7;
      const highlight = style === 'studio' ? band > -0.05 && band < 0.18 : band > 0.12 && band < 0.24;
      return highlight ? mix(c, glare, clear ? 0.5 : 0.28) : c;
    },
    clear ? 0.45 : 0.9,
  );
}

function drawViewDots(raster: Raster, view: number): void {
  const r = Math.max(2, raster.height * 0.022);
  const gap = r * 3.4;
  const y = raster.height - r * 2.6;
  const x0 = raster.width / 2 - gap * 2;
  for (let i = 1; i <= 5; i++) {
    const x = x0 + (i - 1) * gap;
    raster.fill([ellipse(x, y, r + 0.8, r + 0.8, 20)], [60, 60, 66], 0.55);
    raster.fill([ellipse(x, y, r, r, 20)], i === view ? [255, 255, 255] : [150, 150, 156], i === view ? 1 : 0.6);
  }
}

function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}

/** Smooth pseudo-random field in [0, 1] for the tortoise-shell pattern. */
function valueNoise(x: number, y: number): number {
  const xi = Math.floor(x);
  const yi = Math.floor(y);
  const fx = x - xi;
  const fy = y - yi;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const n00 = lattice(xi, yi);
  const n10 = lattice(xi + 1, yi);
  const n01 = lattice(xi, yi + 1);
  const n11 = lattice(xi + 1, yi + 1);
  return (n00 + (n10 - n00) * sx) * (1 - sy) + (n01 + (n11 - n01) * sx) * sy;
}

function lattice(x: number, y: number): number {
  let h = Math.imul(x, 374761393) + Math.imul(y, 668265263);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967295;
}
