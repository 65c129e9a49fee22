/**
 * Colour codes of the catalogue (frame code, and for sunglasses a lens code after a slash:
 * "601/71") with the colours the picture renderer paints them in.
 */
export type Rgb = readonly [number, number, number];

type FrameFinish = 'plain' | 'metal' | 'tortoise' | 'crystal' | 'matte';

export interface FrameColour {
  code: string;
  description: string;
  rgb: Rgb;
  finish: FrameFinish;
}

export const FRAME_COLOURS: readonly FrameColour[] = [
  { code: '001', description: 'Black', rgb: [28, 28, 30], finish: 'plain' },
  { code: '002', description: 'Matte Black', rgb: [48, 48, 50], finish: 'matte' },
  { code: '003', description: 'Silver', rgb: [178, 182, 188], finish: 'metal' },
  { code: '004', description: 'Gunmetal', rgb: [88, 92, 98], finish: 'metal' },
  { code: '006', description: 'Gold', rgb: [201, 164, 82], finish: 'metal' },
  { code: '710', description: 'Havana', rgb: [104, 62, 34], finish: 'tortoise' },
  { code: '902', description: 'Tortoise', rgb: [122, 80, 40], finish: 'tortoise' },
  { code: '720', description: 'Light Havana', rgb: [170, 118, 66], finish: 'tortoise' },
  { code: '601', description: 'Red', rgb: [186, 36, 44], finish: 'plain' },
  { code: '605', description: 'Burgundy', rgb: [110, 28, 44], finish: 'plain' },
  { code: '612', description: 'Blue', rgb: [38, 96, 186], finish: 'plain' },
  { code: '622', description: 'Navy', rgb: [30, 44, 84], finish: 'matte' },
  { code: '630', description: 'Green', rgb: [40, 120, 72], finish: 'plain' },
  { code: '640', description: 'Olive', rgb: [102, 104, 56], finish: 'matte' },
  { code: '650', description: 'Grey', rgb: [120, 122, 126], finish: 'plain' },
  { code: '660', description: 'Pink', rgb: [226, 140, 168], finish: 'plain' },
  { code: '670', description: 'Crystal', rgb: [206, 214, 220], finish: 'crystal' },
  { code: '680', description: 'Brown', rgb: [92, 60, 40], finish: 'plain' },
  { code: '690', description: 'White', rgb: [238, 236, 230], finish: 'plain' },
  { code: '740', description: 'Violet', rgb: [102, 62, 150], finish: 'plain' },
];

export interface LensColour {
  code: string;
  description: string;
  /** Tint at the top and at the bottom of the lens (equal for flat lenses). */
  top: Rgb;
  bottom: Rgb;
  mirror: boolean;
}

export const LENS_COLOURS: readonly LensColour[] = [
  { code: '71', description: 'Green', top: [46, 74, 50], bottom: [46, 74, 50], mirror: false },
  { code: '87', description: 'Grey', top: [52, 54, 58], bottom: [52, 54, 58], mirror: false },
  { code: '13', description: 'Brown', top: [92, 60, 34], bottom: [92, 60, 34], mirror: false },
  { code: '3R', description: 'Blue Mirror', top: [40, 90, 170], bottom: [80, 150, 220], mirror: true },
  { code: '6G', description: 'Silver Mirror', top: [150, 156, 164], bottom: [210, 214, 220], mirror: true },
  { code: '4O', description: 'Gradient Grey', top: [40, 42, 46], bottom: [170, 172, 176], mirror: false },
  { code: '8F', description: 'Gradient Brown', top: [80, 50, 30], bottom: [196, 160, 120], mirror: false },
  { code: '2P', description: 'Polar Grey', top: [44, 48, 54], bottom: [60, 64, 70], mirror: false },
];

/** Clear demo lens of optical frames. */
const CLEAR_LENS: LensColour = {
  code: '',
  description: 'Clear',
  top: [214, 228, 238],
  bottom: [236, 244, 248],
  mirror: false,
};

export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Frame and lens colours of a colour code; unknown codes get a stable colour of their own. */
export function coloursOf(colorCode: string): { frame: FrameColour; lens: LensColour } {
  const [frameCode = '', lensCode] = colorCode.trim().split('/');
  const frame = FRAME_COLOURS.find((c) => c.code === frameCode) ?? {
    code: frameCode,
    description: frameCode,
    rgb: hslToRgb((hashText(frameCode) % 360) / 360, 0.45, 0.38),
    finish: 'plain' as const,
  };
  let lens = CLEAR_LENS;
  if (lensCode !== undefined) {
    const known = LENS_COLOURS.find((c) => c.code === lensCode);
    const hue = (hashText(lensCode) % 360) / 360;
    lens = known ?? { code: lensCode, description: lensCode, top: hslToRgb(hue, 0.35, 0.22), bottom: hslToRgb(hue, 0.35, 0.4), mirror: false };
  }
  return { frame, lens };
}

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function shade(c: Rgb, factor: number): Rgb {
  return factor >= 1 ? mix(c, [255, 255, 255], Math.min(1, factor - 1)) : mix([0, 0, 0], c, Math.max(0, factor));
}

export function hslToRgb(h: number, s: number, l: number): Rgb {
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number): number => {
    let x = t;
    if (x < 0) x += 1;
    if (x > 1) x -= 1;
    if (x < 1 / 6) return p + (q - p) * 6 * x;
    if (x < 1 / 2) return q;
    if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
    return p;
  };
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255];
}

export function rgbToHue(c: Rgb): number {
  const [r, g, b] = [c[0] / 255, c[1] / 255, c[2] / 255];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return 0;
  const d = max - min;
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return h / 6;
}
