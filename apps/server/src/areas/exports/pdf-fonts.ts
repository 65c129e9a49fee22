/**
 * The fonts the PDFs embed (docs/exports.md "Fonts"): Noto Sans (Latin with Polish and every European
 * accent, Greek, Cyrillic) and, for what it lacks, Noto Sans SC (Chinese, Japanese kana and kanji). No
 * single font of a maintained package covers both: Noto Sans SC has no Ł, ą, ś or Greek ά, Noto Sans no
 * CJK. Both come from npm packages (@expo-google-fonts/noto-sans, @expo-google-fonts/noto-sans-sc, OFL
 * 1.1) and are read and parsed once per process, on the first PDF, and every PDF shares the parsed
 * fonts (parsing them per file took 150–500 ms a file); pdfkit embeds the glyphs a file uses, no more.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export type FontStyle = 'regular' | 'bold' | 'italic';

/** A font parsed by fontkit, the parser pdfkit itself uses (and takes in place of a file's bytes). */
interface ParsedFont {
  unitsPerEm: number;
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphForCodePoint(codePoint: number): { advanceWidth: number };
  layout(text: string): unknown;
}

interface PdfFonts {
  /** The parsed fonts pdfkit registers under each name (`main-<style>`, `cjk-<style>`). */
  fonts: ReadonlyMap<string, ParsedFont>;
  /** The registered font that draws `codePoint` in `style`: the main one, else the CJK one, else the main one (a box). */
  fontFor(style: FontStyle, codePoint: number): string;
  /**
   * The advance of `codePoint` in the registered font `name`, in font sizes. Measuring adds these up:
   * shaping every measured text (fontkit's layout, kerning) took most of a large PDF's time, and
   * kerning only narrows a line, so a text measured to fit still fits.
   */
  advance(name: string, codePoint: number): number;
}

// Resolved from this file (src/ under tsx, dist/ in the build): both find the packages in node_modules.
const require = createRequire(import.meta.url);
const fontkit = require('fontkit') as { create(bytes: Buffer): ParsedFont };

const MAIN: Record<FontStyle, string> = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  italic: '@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf',
};
// No italic CJK exists: the regular face stands in.
const CJK: Record<FontStyle, string> = {
  regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
  italic: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
};
const STYLES: FontStyle[] = ['regular', 'bold', 'italic'];

let loaded: PdfFonts | undefined;

function load(): PdfFonts {
  const parsed = new Map<string, ParsedFont>();
  const open = (spec: string) => {
    let font = parsed.get(spec);
    if (!font) {
      font = fontkit.create(readFileSync(require.resolve(spec)));
      parsed.set(spec, font);
    }
    return font;
  };
  const fonts = new Map<string, ParsedFont>();
  const main = new Map<FontStyle, ParsedFont>();
  const cjk = new Map<FontStyle, ParsedFont>();
  for (const style of STYLES) {
    main.set(style, open(MAIN[style]));
    cjk.set(style, open(CJK[style]));
    fonts.set(`main-${style}`, main.get(style)!);
    fonts.set(`cjk-${style}`, cjk.get(style)!);
  }
  const chosen = new Map<string, string>();
  const advances = new Map<string, number>();
  return {
    fonts,
    fontFor(style, codePoint) {
      const key = `${style}${codePoint}`;
      let name = chosen.get(key);
      if (!name) {
        if (main.get(style)!.hasGlyphForCodePoint(codePoint)) name = `main-${style}`;
        else name = cjk.get(style)!.hasGlyphForCodePoint(codePoint) ? `cjk-${style}` : `main-${style}`;
        chosen.set(key, name);
      }
      return name;
    },
    advance(name, codePoint) {
      const key = `${name}${codePoint}`;
      let em = advances.get(key);
      if (em === undefined) {
        const font = fonts.get(name)!;
        em = font.glyphForCodePoint(codePoint).advanceWidth / font.unitsPerEm;
        advances.set(key, em);
      }
      return em;
    },
  };
}

/** The fonts, read on first use and kept for the process. */
export function pdfFonts(): PdfFonts {
  return (loaded ??= load());
}
