/**
 * The PDF side shared by module and cluster exports (pdfkit): A4 pages with a running cursor, headings
 * that never overflow (one line with an ellipsis, or wrapped text measured first), SKU cards (picture,
 * model colour size, UPC, price) in a grid, simple tables, and "Page n of N" footers. Whatever does not
 * fit on a page starts a new one through the caller's `continued` heading.
 */
import PDFDocument from 'pdfkit';
import type { ProductDto } from '@bo/shared/modules';
import { formatPrice } from '@bo/shared/format';

export const MARGIN = 28;
const FOOTER = 18;
const CARD = { width: 92, height: 96, gap: 6, picture: 56, pad: 4 } as const;
export const GREY = '#666666';

/** Prices as the web app shows them ('1.234,50 €'); the PDF's Helvetica has no narrow no-break space. */
export const formatEuro = (value: number | null | undefined) => formatPrice(value).replace(/\u202f/g, '\u00a0');

const pad2 = (n: number) => String(n).padStart(2, '0');
const formatDateTime = (d: Date) => `${pad2(d.getDate())}/${pad2(d.getMonth() + 1)}/${d.getFullYear()} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;

export interface PdfPagesOptions {
  layout: 'portrait' | 'landscape';
  title: string;
  /** Draws the SKU's picture (a PNG, 3:2, about 120 px wide for the cards' 84 pt). */
  picture: (sku: ProductDto) => Buffer;
  /** Where the file's bytes go. */
  out: (chunk: Buffer) => void;
  now?: Date;
}

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

  /** One line, cut with an ellipsis when too long. */
  line(text: string, opts: { font?: string; size: number; color?: string; gap?: number; x?: number; width?: number }) {
    const x = opts.x ?? this.left;
    this.doc
      .font(opts.font ?? 'Helvetica')
      .fontSize(opts.size)
      .fillColor(opts.color ?? 'black')
      .text(text, x, this.y, { width: opts.width ?? this.width - (x - this.left), height: opts.size + 2, lineBreak: false, ellipsis: true });
    this.y += opts.size + (opts.gap ?? 4);
  }

  /** Wrapped text, measured first so that it starts a new page (through `continued`) rather than overflow. */
  paragraph(text: string, opts: { font?: string; size: number; color?: string; gap?: number }, continued: () => void) {
    this.doc.font(opts.font ?? 'Helvetica').fontSize(opts.size);
    const height = this.doc.heightOfString(text, { width: this.width });
    if (!this.fits(height)) continued();
    this.doc.fillColor(opts.color ?? 'black').text(text, this.left, this.y, { width: this.width, height: this.bottom - this.y, ellipsis: true });
    this.y += Math.min(height, this.bottom - this.y) + (opts.gap ?? 4);
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
    const text = (value: string, font: string, size: number, color = 'black') => {
      doc.font(font).fontSize(size).fillColor(color).text(value, x + CARD.pad, ty, { width: inner, height: size + 2, lineBreak: false, ellipsis: true });
      ty += size + 2.5;
    };
    text(`${sku.model} ${sku.color} ${sku.size}`, 'Helvetica-Bold', 7);
    text(sku.upc, 'Helvetica', 6.5, GREY);
    text(formatEuro(sku.srp), 'Helvetica', 7);
  }

  /** A titled grid of SKU cards ("Must Have (12)"); `continued` starts a new page with the item's heading. */
  skuSection(title: string, skus: readonly ProductDto[], continued: () => void) {
    if (!this.fits(15 + (skus.length ? CARD.height : 12))) continued();
    this.line(`${title} (${skus.length})`, { font: 'Helvetica-Bold', size: 10, gap: 5 });
    if (skus.length === 0) {
      this.line('No SKUs', { font: 'Helvetica-Oblique', size: 8, color: GREY, gap: 10 });
      return;
    }
    const columns = Math.max(1, Math.floor((this.width + CARD.gap) / (CARD.width + CARD.gap)));
    for (let i = 0; i < skus.length; i += columns) {
      if (!this.fits(CARD.height)) {
        continued();
        this.line(`${title} (continued)`, { font: 'Helvetica-Bold', size: 10, gap: 5 });
      }
      skus.slice(i, i + columns).forEach((sku, j) => this.card(sku, this.left + j * (CARD.width + CARD.gap), this.y));
      this.y += CARD.height + CARD.gap;
    }
    this.y += 8;
  }

  /** A table with a bold header row, repeated after every page break. Cells are cut to their column. */
  table(columns: readonly TableColumn[], rows: readonly (readonly string[])[], continued: () => void) {
    const size = 8.5;
    const rowHeight = size + 6;
    const total = columns.reduce((s, c) => s + c.share, 0);
    const widths = columns.map((c) => (c.share / total) * this.width);
    const drawRow = (cells: readonly string[], bold: boolean) => {
      let x = this.left;
      cells.forEach((cell, i) => {
        this.doc
          .font(bold ? 'Helvetica-Bold' : 'Helvetica')
          .fontSize(size)
          .fillColor('black')
          .text(cell, x + 2, this.y + 3, { width: widths[i]! - 4, height: size + 2, lineBreak: false, ellipsis: true });
        x += widths[i]!;
      });
      this.y += rowHeight;
      this.doc.moveTo(this.left, this.y).lineTo(this.left + this.width, this.y).lineWidth(0.3).strokeColor(bold ? '#888888' : '#dddddd').stroke();
    };
    if (!this.fits(rowHeight * 2)) continued();
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
      doc.font('Helvetica').fontSize(7.5).fillColor(GREY);
      doc.text(exported, this.left, fy, { lineBreak: false });
      doc.text(`Page ${i - start + 1} of ${count}`, this.left, fy, { width: this.width, align: 'right', lineBreak: false });
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
