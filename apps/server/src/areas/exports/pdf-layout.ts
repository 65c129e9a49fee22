/**
 * The PDF side shared by module and cluster exports (pdfkit): A4 pages with a running cursor, headings
 * that never overflow (one line with an ellipsis, or wrapped text), SKU cards (picture, model colour
 * size, UPC, price) in a grid, simple tables, and "Page n of N" footers. Whatever does not fit on a page
 * starts a new one through the caller's `continued` heading, and a heading never stays alone at a page's
 * foot (`heading`).
 *
 * All text goes through `runs` here: each stretch of a text is drawn in the embedded font that has its
 * characters (pdf-fonts.ts: Noto Sans, Noto Sans SC for CJK), on one baseline.
 */
import PDFDocument from 'pdfkit';
import type { ProductDto } from '@bo/shared/modules';
import { formatPrice } from '@bo/shared/format';
import { pdfFonts, type FontStyle } from './pdf-fonts.js';

const MARGIN = 28;
const FOOTER = 18;
const CARD = { width: 92, height: 96, gap: 6, picture: 56, pad: 4 } as const;
export const GREY = '#666666';
/** Where the baseline sits below a line's top, and a wrapped line's height, in font sizes: room for accented capitals and CJK. */
const ASCENT = 0.9;
const LEADING = 1.25;
const TABLE = { size: 8.5, row: 8.5 + 6 } as const;
/** A SKU section's title with its first row of cards: what `heading` keeps together. */
export const SKU_SECTION_START = 15 + CARD.height;
/** A table's header with its first row. */
export const TABLE_START = 2 * TABLE.row;

/** Prices as the web app shows them ('1.234,50 €'); Noto Sans has no narrow no-break space. */
const formatEuro = (value: number | null | undefined) => formatPrice(value).replace(/\u202f/g, '\u00a0');

const pad2 = (n: number) => String(n).padStart(2, '0');
const formatDateTime = (d: Date) => `${pad2(d.getDate())}/${pad2(d.getMonth() + 1)}/${d.getFullYear()} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;

interface PdfPagesOptions {
  layout: 'portrait' | 'landscape';
  title: string;
  /** Draws the SKU's picture (a PNG, 3:2, about 120 px wide for the cards' 84 pt). */
  picture: (sku: ProductDto) => Buffer;
  /** Where the file's bytes go. */
  out: (chunk: Buffer) => void;
  now?: Date;
}

interface TextStyle {
  font?: FontStyle;
  size: number;
  color?: string;
}

interface Run {
  font: string;
  text: string;
}

/** Words and spaces, each CJK character on its own: a line may break between any two of them. */
const BREAKS = /\s+|[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[^\s\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+/gu;

export interface TableColumn {
  title: string;
  /** Share of the page width. */
  share: number;
}

export class PdfPages {
  readonly doc: PDFKit.PDFDocument;
  y = MARGIN;
  readonly left = MARGIN;
  private readonly ended: Promise<void>;
  // pdfkit embeds an opened image once however often it is drawn: one per UPC for the whole file.
  private readonly opened = new Map<string, PDFKit.Mixins.ImageSrc>();

  constructor(private readonly opts: PdfPagesOptions) {
    this.doc = new PDFDocument({
      size: 'A4',
      layout: opts.layout,
      margin: MARGIN,
      bufferPages: true,
      autoFirstPage: false,
      info: { Title: opts.title, Creator: 'Assortment Backoffice' },
    });
    // The process's parsed fonts (pdfkit takes a fontkit font for its bytes); a file embeds a subset of
    // those its texts use, no other.
    for (const [name, font] of pdfFonts().fonts) this.doc.registerFont(name, font as unknown as Buffer);
    this.doc.on('data', (chunk: Buffer) => opts.out(chunk));
    this.ended = new Promise<void>((resolve, reject) => {
      this.doc.on('end', resolve);
      this.doc.on('error', reject);
    });
  }

  get width() {
    return this.doc.page.width - 2 * MARGIN;
  }

  get bottom() {
    return this.doc.page.height - MARGIN - FOOTER;
  }

  addPage() {
    this.doc.addPage();
    this.y = MARGIN;
  }

  /** Whether `height` more points fit on the page. */
  fits(height: number) {
    return this.y + height <= this.bottom;
  }

  /** The stretches of `text` that one font draws. */
  private runs(text: string, style: FontStyle): Run[] {
    const fonts = pdfFonts();
    const runs: Run[] = [];
    for (const char of text) {
      const last = runs[runs.length - 1];
      // Spaces stay in the stretch they are in: fewer font switches.
      const font = last && /\s/.test(char) ? last.font : fonts.fontFor(style, char.codePointAt(0)!);
      if (last?.font === font) last.text += char;
      else runs.push({ font, text: char });
    }
    return runs;
  }

  private widthOf(text: string, style: FontStyle, size: number) {
    let width = 0;
    for (const run of this.runs(text, style)) width += this.runWidth(run, size);
    return width;
  }

  private runWidth(run: Run, size: number) {
    const fonts = pdfFonts();
    let em = 0;
    for (const char of run.text) em += fonts.advance(run.font, char.codePointAt(0)!);
    return em * size;
  }

  /** Draws one line of text whose top is at `top`, every font on the same baseline. */
  private draw(text: string, x: number, top: number, style: TextStyle) {
    const baseline = top + ASCENT * style.size;
    for (const run of this.runs(text, style.font ?? 'regular')) {
      this.doc.font(run.font).fontSize(style.size).fillColor(style.color ?? 'black');
      this.doc.text(run.text, x, baseline, { lineBreak: false, baseline: 'alphabetic' });
      x += this.runWidth(run, style.size);
    }
  }

  /** `text` on one line of `width`, cut with an ellipsis when too long. */
  private cut(text: string, width: number, style: TextStyle) {
    const font = style.font ?? 'regular';
    const oneLine = text.replace(/\s+/g, ' ');
    if (this.widthOf(oneLine, font, style.size) <= width) return oneLine;
    const chars = [...oneLine];
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.widthOf(`${chars.slice(0, mid).join('').trimEnd()}…`, font, style.size) <= width) lo = mid;
      else hi = mid - 1;
    }
    return `${chars.slice(0, lo).join('').trimEnd()}…`;
  }

  /** `text` broken into lines of `width` (at spaces, between CJK characters, inside a word only when it alone is too wide). */
  private wrap(text: string, width: number, style: TextStyle) {
    const font = style.font ?? 'regular';
    const lines: string[] = [];
    for (const hard of text.split(/\r?\n/)) {
      let line = '';
      let lineWidth = 0;
      const push = () => {
        lines.push(line.trimEnd());
        line = '';
        lineWidth = 0;
      };
      for (const token of hard.match(BREAKS) ?? []) {
        const space = /^\s/.test(token);
        if (space && !line) continue;
        const w = this.widthOf(token, font, style.size);
        if (lineWidth + w <= width || space) {
          line += token;
          lineWidth += w;
          continue;
        }
        if (line) push();
        if (w <= width) {
          line = token;
          lineWidth = w;
          continue;
        }
        for (const char of token) {
          const cw = this.widthOf(char, font, style.size);
          if (line && lineWidth + cw > width) push();
          line += char;
          lineWidth += cw;
        }
      }
      push();
    }
    return lines;
  }

  /** A wrapped line's height at `size`. */
  lineHeight(size: number) {
    return LEADING * size;
  }

  /** One line, cut with an ellipsis when too long. */
  line(text: string, opts: TextStyle & { gap?: number; x?: number; width?: number }) {
    const x = opts.x ?? this.left;
    this.draw(this.cut(text, opts.width ?? this.width - (x - this.left), opts), x, this.y, opts);
    this.y += opts.size + (opts.gap ?? 4);
  }

  /**
   * A one-line heading kept with what follows it: when the heading and `next` points more (its first
   * line, row or cards) do not fit, both start on a new page (through `continued`), so no heading is
   * left alone at a page's foot.
   */
  heading(text: string, opts: TextStyle & { gap?: number }, next: number, continued: () => void) {
    if (!this.fits(opts.size + (opts.gap ?? 4) + next)) continued();
    this.line(text, opts);
  }

  /** Wrapped text; a line that does not fit starts a new page (through `continued`) rather than overflow. */
  paragraph(text: string, opts: TextStyle & { gap?: number }, continued: () => void) {
    const height = this.lineHeight(opts.size);
    for (const line of this.wrap(text, this.width, opts)) {
      if (!this.fits(height)) continued();
      this.draw(line, this.left, this.y, opts);
      this.y += height;
    }
    this.y += opts.gap ?? 4;
  }

  rule(gap = 8) {
    this.doc.moveTo(this.left, this.y).lineTo(this.left + this.width, this.y).lineWidth(0.5).strokeColor('#bbbbbb').stroke();
    this.y += gap;
  }

  private pictureOf(sku: ProductDto) {
    let image = this.opened.get(sku.upc);
    if (!image) {
      const open = (this.doc as unknown as { openImage(src: Buffer): PDFKit.Mixins.ImageSrc }).openImage.bind(this.doc);
      image = open(this.opts.picture(sku));
      this.opened.set(sku.upc, image);
    }
    return image;
  }

  private card(sku: ProductDto, x: number, cy: number) {
    const doc = this.doc;
    doc.roundedRect(x, cy, CARD.width, CARD.height, 4).lineWidth(0.5).strokeColor('#cccccc').stroke();
    const inner = CARD.width - 2 * CARD.pad;
    doc.image(this.pictureOf(sku), x + CARD.pad, cy + CARD.pad, { fit: [inner, CARD.picture], align: 'center', valign: 'center' });
    let ty = cy + CARD.pad + CARD.picture + 3;
    const text = (value: string, style: TextStyle) => {
      this.draw(this.cut(value, inner, style), x + CARD.pad, ty, style);
      ty += style.size + 2.5;
    };
    text(`${sku.model} ${sku.color} ${sku.size}`, { font: 'bold', size: 7 });
    text(sku.upc, { size: 6.5, color: GREY });
    text(formatEuro(sku.srp), { size: 7 });
  }

  /** A titled grid of SKU cards ("Must Have (12)"); `continued` starts a new page with the item's heading. */
  skuSection(title: string, skus: readonly ProductDto[], continued: () => void) {
    this.heading(`${title} (${skus.length})`, { font: 'bold', size: 10, gap: 5 }, skus.length ? CARD.height : 18, continued);
    if (skus.length === 0) {
      this.line('No SKUs', { font: 'italic', size: 8, color: GREY, gap: 10 });
      return;
    }
    const columns = Math.max(1, Math.floor((this.width + CARD.gap) / (CARD.width + CARD.gap)));
    for (let i = 0; i < skus.length; i += columns) {
      if (!this.fits(CARD.height)) {
        continued();
        this.line(`${title} (continued)`, { font: 'bold', size: 10, gap: 5 });
      }
      skus.slice(i, i + columns).forEach((sku, j) => this.card(sku, this.left + j * (CARD.width + CARD.gap), this.y));
      this.y += CARD.height + CARD.gap;
    }
    this.y += 8;
  }

  /** A table with a bold header row, repeated after every page break. Cells are cut to their column. */
  table(columns: readonly TableColumn[], rows: readonly (readonly string[])[], continued: () => void) {
    const { size, row: rowHeight } = TABLE;
    const total = columns.reduce((s, c) => s + c.share, 0);
    const widths = columns.map((c) => (c.share / total) * this.width);
    const drawRow = (cells: readonly string[], bold: boolean) => {
      let x = this.left;
      cells.forEach((cell, i) => {
        const style: TextStyle = { font: bold ? 'bold' : 'regular', size };
        this.draw(this.cut(cell, widths[i]! - 4, style), x + 2, this.y + 3, style);
        x += widths[i]!;
      });
      this.y += rowHeight;
      this.doc.moveTo(this.left, this.y).lineTo(this.left + this.width, this.y).lineWidth(0.3).strokeColor(bold ? '#888888' : '#dddddd').stroke();
    };
    if (!this.fits(TABLE_START)) continued();
    drawRow(columns.map((c) => c.title), true);
    for (const row of rows) {
      if (!this.fits(rowHeight)) {
        continued();
        drawRow(columns.map((c) => c.title), true);
      }
      drawRow(row, false);
    }
    this.y += 10;
  }

  private footers() {
    const doc = this.doc;
    const exported = `Assortment Backoffice · exported on ${formatDateTime(this.opts.now ?? new Date())}`;
    const { start, count } = doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      // Writing inside the bottom margin must not start a new page.
      const margin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      const fy = doc.page.height - MARGIN - 8;
      const style: TextStyle = { size: 7.5, color: GREY };
      this.draw(exported, this.left, fy, style);
      const page = `Page ${i - start + 1} of ${count}`;
      this.draw(page, this.left + this.width - this.widthOf(page, 'regular', style.size), fy, style);
      doc.page.margins.bottom = margin;
    }
  }

  /** Page numbers, then the file's bytes to `out` (pages are kept until here: 'Page n of N' needs them all). */
  async finish(): Promise<void> {
    this.footers();
    this.doc.end();
    await this.ended;
  }
}
